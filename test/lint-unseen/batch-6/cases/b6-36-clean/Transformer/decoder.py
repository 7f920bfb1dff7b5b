import torch.nn as nn

from .components import Attention


class DecoderLayer(nn.Module):
    def __init__(self, embedding_dims, d_ff, n_heads):
        super().__init__()
        self.self_attn = Attention(embedding_dims=embedding_dims, O_dim=embedding_dims // n_heads, heads=n_heads, mode="masked")
        self.cross_attn = Attention(embedding_dims=embedding_dims, O_dim=embedding_dims // n_heads, heads=n_heads, mode="multihead")
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(embedding_dims), nn.LayerNorm(embedding_dims), nn.LayerNorm(embedding_dims)
        self.ffn = nn.Sequential(nn.Linear(embedding_dims, d_ff), nn.ReLU(), nn.Linear(d_ff, embedding_dims))

    def forward(self, x, enc_out, src_pad_mask=None, tgt_pad_mask=None):
        self_attn_mask = tgt_pad_mask.unsqueeze(1).unsqueeze(2) if tgt_pad_mask is not None else None  # (B, 1, 1, T)
        h = self.norm1(x)
        x = x + self.self_attn(q=h, kv=h, attn_mask=self_attn_mask)
        cross_attn_mask = src_pad_mask.unsqueeze(1).unsqueeze(2) if src_pad_mask is not None else None  # (B, 1, 1, S)
        x = x + self.cross_attn(q=self.norm2(x), kv=enc_out, attn_mask=cross_attn_mask)
        return x + self.ffn(self.norm3(x))
