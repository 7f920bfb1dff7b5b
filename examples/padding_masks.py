"""Padding masks mean opposite things in two PyTorch APIs.

nn.MultiheadAttention's key_padding_mask: True = ignore this key (padding).
F.scaled_dot_product_attention's boolean attn_mask: True = attend to this key.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_model: int = 64, n_heads: int = 4, pad_id: int = 0):
        super().__init__()
        self.pad_id = pad_id
        self.n_heads = n_heads
        self.embed = nn.Embedding(1000, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward_mha(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.embed(ids)
        key_padding_mask = ids == self.pad_id  # True at padding: what nn.MultiheadAttention expects
        out, _ = self.mha(x, x, x, key_padding_mask=key_padding_mask)
        return out

    def forward_sdpa(self, ids: torch.Tensor) -> torch.Tensor:
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)  # each (B, H, T, hd)
        key_padding_mask = ids == self.pad_id  # True at padding
        # Bug: SDPA reads True as "attend", so every query now looks only at the padding
        # (and a sequence without padding is fully masked: SDPA silently returns zeros).
        return F.scaled_dot_product_attention(q, k, v, attn_mask=key_padding_mask[:, None, None, :])

    def forward_sdpa_fixed(self, ids: torch.Tensor) -> torch.Tensor:
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)  # each (B, H, T, hd)
        key_padding_mask = ids == self.pad_id
        return F.scaled_dot_product_attention(q, k, v, attn_mask=~key_padding_mask[:, None, None, :])
