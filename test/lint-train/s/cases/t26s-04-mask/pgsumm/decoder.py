import torch as pt
import torch.nn as nn

from pgsumm.attention import BahdanauAttn, BahdanauAttnWithCoverage


class PointerGeneratorDecoder(nn.Module):
    def __init__(self, vocab_size: int, embed_dim: int, hidden_dim: int, use_coverage: bool = True):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.cell = nn.LSTMCell(embed_dim + 2 * hidden_dim, hidden_dim)
        self.attention = BahdanauAttnWithCoverage(hidden_dim) if use_coverage else BahdanauAttn(hidden_dim)
        self.out = nn.Linear(3 * hidden_dim, vocab_size)
        self.p_gen = nn.Linear(4 * hidden_dim + embed_dim, 1)

    def forward(self, decoder_input_ids, encoder_outputs, encoder_mask, state):
        h, c = state
        context = encoder_outputs.new_zeros(encoder_outputs.size(0), encoder_outputs.size(2))
        coverage = None
        vocab_dists, attn_dists, pgens = [], [], []
        for t in range(decoder_input_ids.size(1)):
            x = self.embedding(decoder_input_ids[:, t])
            h, c = self.cell(pt.cat([x, context], dim=-1), (h, c))
            context, attn_dist, coverage = self.attention(encoder_outputs, encoder_mask, pt.cat([h, c], dim=-1), coverage)
            vocab_dists.append(pt.softmax(self.out(pt.cat([h, context], dim=-1)), dim=-1))
            attn_dists.append(attn_dist)
            pgens.append(pt.sigmoid(self.p_gen(pt.cat([context, h, c, x], dim=-1))))
        return pt.stack(vocab_dists, 1), pt.stack(attn_dists, 1), pt.stack(pgens, 1)
