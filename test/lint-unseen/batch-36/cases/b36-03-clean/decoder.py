import torch.nn as nn

from attention import MultiHeadAttention
from masks import make_padding_mask, make_tgt_mask


class DecoderLayer(nn.Module):
    def __init__(self, d_model=512, n_heads=8, d_ff=2048, dropout=0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(3))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, memory, tgt_mask, src_mask):
        x = self.norms[0](x + self.drop(self.self_attn(x, x, x, mask=tgt_mask)))
        x = self.norms[1](x + self.drop(self.cross_attn(x, memory, memory, mask=src_mask)))
        return self.norms[2](x + self.drop(self.ff(x)))


def decode(layers, tgt_emb, memory, src_ids, tgt_ids, pad_idx=0):
    tgt_mask = make_tgt_mask(tgt_ids, pad_idx)  # [B, 1, S_tgt, S_tgt]
    src_mask = make_padding_mask(src_ids, pad_idx)  # [B, 1, 1, S_src]
    x = tgt_emb
    for layer in layers:
        x = layer(x, memory, tgt_mask, src_mask)
    return x
