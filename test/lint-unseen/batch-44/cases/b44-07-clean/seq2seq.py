import torch
import torch.nn as nn

from sublayers import AttentionSublayer, FeedForward


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_k, d_v, d_inner):
        super().__init__()
        self.self_attn = AttentionSublayer(d_model, heads, d_k, d_v)
        self.ff = FeedForward(d_model, d_inner)

    def forward(self, x, src_keep):
        return self.ff(self.self_attn(x, x, src_keep))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_k, d_v, d_inner):
        super().__init__()
        self.self_attn = AttentionSublayer(d_model, heads, d_k, d_v)
        self.cross_attn = AttentionSublayer(d_model, heads, d_k, d_v)
        self.ff = FeedForward(d_model, d_inner)

    def forward(self, y, tgt_keep, memory, src_keep):
        y = self.self_attn(y, y, tgt_keep)
        y = self.cross_attn(y, memory, src_keep)
        return self.ff(y)


class Translator(nn.Module):
    def __init__(self, vocab, pad_id, d_model=512, heads=8, layers=6, d_inner=2048):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad_id)
        self.enc = nn.ModuleList(EncoderLayer(d_model, heads, 64, 64, d_inner) for _ in range(layers))
        self.dec = nn.ModuleList(DecoderLayer(d_model, heads, 64, 64, d_inner) for _ in range(layers))
        self.generator = nn.Linear(d_model, vocab, bias=False)
        self.emb_scale = d_model ** 0.5

    def pad_keep(self, ids):
        return (ids != self.pad_id).unsqueeze(-2)

    @staticmethod
    def no_peek(ids):
        n = ids.size(-1)
        return torch.triu(torch.ones(1, n, n, device=ids.device), diagonal=1) == 0

    def forward(self, src, tgt):
        src_keep = self.pad_keep(src)
        tgt_keep = self.pad_keep(tgt) & self.no_peek(tgt)
        memory = self.embed(src) * self.emb_scale
        for layer in self.enc:
            memory = layer(memory, src_keep)
        y = self.embed(tgt) * self.emb_scale
        for layer in self.dec:
            y = layer(y, tgt_keep, memory, src_keep)
        return self.generator(y)
