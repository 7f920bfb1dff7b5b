import torch
import torch.nn as nn

from .modules import MultiheadAttention


class TinyTranslator(nn.Module):
    def __init__(self, src_vocab: int, tgt_vocab: int, d_model: int = 512, heads: int = 8):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model)
        self.enc_attn = MultiheadAttention(d_model, heads)
        self.dec_self = MultiheadAttention(d_model, heads)
        self.dec_cross = MultiheadAttention(d_model, heads)
        self.generator = nn.Linear(d_model, tgt_vocab, bias=False)

    @staticmethod
    def make_pad_mask(tokens, pad_id):
        # True = masked, (B, 1, 1, T)
        return (tokens == pad_id).unsqueeze(1).unsqueeze(2)

    @staticmethod
    def make_look_ahead_mask(size, device):
        return torch.triu(torch.ones(size, size, dtype=torch.bool, device=device), diagonal=1).unsqueeze(0).unsqueeze(0)

    def encode(self, src, pad_id):
        src_mask = self.make_pad_mask(src, pad_id)
        x = self.src_emb(src)
        return x + self.enc_attn(x, x, x, src_mask), src_mask

    def decode(self, tgt, memory, src, pad_src, pad_tgt):
        self_mask = self.make_pad_mask(tgt, pad_tgt) | self.make_look_ahead_mask(tgt.size(1), tgt.device)
        cross_mask = self.make_pad_mask(src, pad_src)
        y = self.tgt_emb(tgt)
        y = y + self.dec_self(y, y, y, self_mask)
        return y + self.dec_cross(y, memory, memory, cross_mask)

    def forward(self, src, tgt, pad_src=0, pad_tgt=0):
        memory, _ = self.encode(src, pad_src)
        return self.generator(self.decode(tgt[:, :-1], memory, src, pad_src, pad_tgt))
