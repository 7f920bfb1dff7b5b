# case: b10-08-clean
# modelled-on: JoshGPG/MiniLLM https://github.com/JoshGPG/MiniLLM/commit/f060014
# label: correct
# class: clean
# pattern: nn.MultiheadAttention given a boolean triu(ones, diagonal=1) attn_mask built in the layer when none is passed, and an optional key_padding_mask passed straight through
# why: for nn.MultiheadAttention a True entry of a boolean attn_mask is NOT allowed to attend (the opposite of F.scaled_dot_product_attention), so the strictly upper triangle is exactly the future; the comment states that intent
# looks-like: ATT002, ATT008
# source: https://github.com/JoshGPG/MiniLLM https://github.com/JoshGPG/MiniLLM/commit/f060014 src/model.py
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    """Multi-head self-attention layer."""

    def __init__(self, emb_dim: int, num_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.attn = nn.MultiheadAttention(embed_dim=emb_dim, num_heads=num_heads, dropout=dropout, batch_first=True)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, attn_mask=None, key_padding_mask=None):
        if attn_mask is None:
            seq_len = x.size(1)
            # disallow attention to future positions so that training matches generation
            attn_mask = torch.ones(seq_len, seq_len, device=x.device, dtype=torch.bool)
            attn_mask = torch.triu(attn_mask, diagonal=1)
        out, _ = self.attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)
        return self.dropout(out)


class TransformerBlock(nn.Module):
    def __init__(self, emb_dim: int, num_heads: int, ffn_dim: int, dropout: float = 0.0, pre_norm: bool = True):
        super().__init__()
        self.pre_norm = pre_norm
        self.attn = SelfAttention(emb_dim, num_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(emb_dim, ffn_dim), nn.GELU(), nn.Linear(ffn_dim, emb_dim))
        self.norm1 = nn.LayerNorm(emb_dim)
        self.norm2 = nn.LayerNorm(emb_dim)

    def forward(self, x):
        if self.pre_norm:
            x = x + self.attn(self.norm1(x))
            return x + self.ff(self.norm2(x))
        x = self.norm1(x + self.attn(x))
        return self.norm2(x + self.ff(x))
