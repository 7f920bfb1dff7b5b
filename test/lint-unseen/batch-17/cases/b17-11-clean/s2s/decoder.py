import torch
import torch.nn as nn

from s2s.modules.multi_head import HeadSelectingAttention

PAD = 0


class Decoder(nn.Module):
    def __init__(self, vocab, emb_dim, dec_size, n_heads):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb_dim, padding_idx=PAD)
        self.rnn = nn.GRUCell(emb_dim + dec_size, dec_size)
        self.attention = HeadSelectingAttention(dec_size, n_heads)
        self.dim_per_head = dec_size * 6 // n_heads
        self.n_heads = n_heads
        self.W_K = nn.Linear(dec_size, self.dim_per_head * n_heads)
        self.W_V = nn.Linear(dec_size, self.dim_per_head * n_heads)
        self.generator = nn.Linear(dec_size, vocab)

    def forward(self, src, tgt, hidden, context, greedy=False):
        # src: (Ls, B) token ids; context: (Ls, B, dec_size) encoder states
        src_pad_mask = src.eq(PAD).transpose(0, 1).float()  # (B, Ls), 1.0 = padding
        self.attention.applyMask(src_pad_mask)
        batch = context.size(1)
        k_s = self.W_K(context.transpose(0, 1)).view(batch, -1, self.n_heads, self.dim_per_head).transpose(1, 2)
        v_s = self.W_V(context.transpose(0, 1)).view(batch, -1, self.n_heads, self.dim_per_head).transpose(1, 2)

        cur = torch.zeros(batch, hidden.size(1), device=hidden.device)
        outputs = []
        for t in range(tgt.size(0)):
            hidden = self.rnn(torch.cat([self.embed(tgt[t]), cur], dim=1), hidden)
            cur, _ = self.attention(hidden.unsqueeze(1), k_s, v_s, greedy)
            outputs.append(self.generator(cur))
        return torch.stack(outputs)
