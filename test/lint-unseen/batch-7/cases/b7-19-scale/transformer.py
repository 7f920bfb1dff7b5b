import torch
import torch.nn as nn

from utils import SelfAttention, TransformerBlock


class DecoderBlock(nn.Module):
    def __init__(self, embed_size, heads, forward_expansion, dropout):
        super().__init__()
        self.self_attention = SelfAttention(embed_size, heads)
        self.norm = nn.LayerNorm(embed_size)
        self.block = TransformerBlock(embed_size, heads, dropout, forward_expansion)

    def forward(self, x, enc_out, src_mask, trg_mask):
        q = self.norm(self.self_attention(x, x, x, trg_mask) + x)
        return self.block(enc_out, enc_out, q, src_mask)


class Transformer(nn.Module):
    def __init__(self, src_vocab, trg_vocab, src_pad_idx, trg_pad_idx, embed_size=384, heads=3, num_layers=3, forward_expansion=4, dropout=0.1):
        super().__init__()
        self.src_pad_idx = src_pad_idx
        self.src_emb = nn.Embedding(src_vocab, embed_size)
        self.trg_emb = nn.Embedding(trg_vocab, embed_size)
        self.encoder = nn.ModuleList([TransformerBlock(embed_size, heads, dropout, forward_expansion) for _ in range(num_layers)])
        self.decoder = nn.ModuleList([DecoderBlock(embed_size, heads, forward_expansion, dropout) for _ in range(num_layers)])
        self.fc = nn.Linear(embed_size, trg_vocab)

    def make_src_mask(self, src):
        return (src != self.src_pad_idx).unsqueeze(1).unsqueeze(2)  # (N, 1, 1, src_len)

    def make_trg_mask(self, trg):
        N, trg_len = trg.shape
        return torch.tril(torch.ones((trg_len, trg_len))).expand(N, 1, trg_len, trg_len)

    def forward(self, src, trg):
        src_mask, trg_mask = self.make_src_mask(src), self.make_trg_mask(trg)
        enc = self.src_emb(src)
        for layer in self.encoder:
            enc = layer(enc, enc, enc, src_mask)
        out = self.trg_emb(trg)
        for layer in self.decoder:
            out = layer(out, enc, src_mask, trg_mask)
        return self.fc(out)
