import torch
import torch.nn as nn

from MultiHeadAttention import MultiHeadAttention


class Transformer(nn.Module):
    def __init__(self, src_vocab: int, trg_vocab: int, src_pad_idx: int, trg_pad_idx: int, d_model: int = 512, nheads: int = 8, device: str = "cpu"):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model)
        self.trg_emb = nn.Embedding(trg_vocab, d_model)
        self.enc_attn = MultiHeadAttention(d_model, nheads)
        self.dec_self = MultiHeadAttention(d_model, nheads)
        self.dec_cross = MultiHeadAttention(d_model, nheads)
        self.out = nn.Linear(d_model, trg_vocab)
        self.src_pad_idx, self.trg_pad_idx, self.device = src_pad_idx, trg_pad_idx, device

    def make_src_mask(self, src):
        return (src != self.src_pad_idx).unsqueeze(1).unsqueeze(2).to(self.device)  # [N, 1, 1, L]

    def make_trg_mask(self, trg):
        N, L = trg.shape
        return torch.tril(torch.ones((L, L))).expand(N, 1, L, L).to(self.device)

    def forward(self, src, trg):
        src_mask, trg_mask = self.make_src_mask(src), self.make_trg_mask(trg)
        s = self.src_emb(src)
        enc = s + self.enc_attn(s, s, s, src_mask)
        t = self.trg_emb(trg)
        t = t + self.dec_self(t, t, t, trg_mask)
        t = t + self.dec_cross(t, enc, enc, src_mask)
        return self.out(t)
