# case: b3-20-clean
# modelled-on: facebookresearch/esm https://github.com/facebookresearch/esm/issues/57
# label: correct
# class: clean
# pattern: MSA column self-attention (axial attention over the rows of a multiple sequence alignment): x is (rows, cols, batch, dim), the scores come from einsum 'icnhd,jcnhd->hcnij' to (heads, cols, batch, rows_i, rows_j), the padding mask (batch, rows, cols, True = padding) is permuted and unsqueezed to (1, cols, batch, 1, rows_j), filled with -10000, and the softmax runs over the last axis
# why: column attention attends across the rows of one column, so the key axis is rows_j, the last one, as the maintainer answered in the issue; the permuted mask lines up with the key rows and is True at padding; -10000 is representable in float16
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/facebookresearch/esm https://github.com/facebookresearch/esm/issues/57 esm/axial_attention.py
import torch
import torch.nn as nn


class ColumnSelfAttention(nn.Module):
    """Compute self-attention over the rows of a 2D input (each column of an MSA attends across sequences)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout_module = nn.Dropout(dropout)

    def forward(self, x, self_attn_padding_mask=None):
        num_rows, num_cols, batch_size, embed_dim = x.size()
        if num_rows == 1:
            # a single row attends only to itself
            attn_probs = torch.ones(self.num_heads, num_cols, batch_size, 1, 1, device=x.device, dtype=x.dtype)
            return self.out_proj(self.v_proj(x)), attn_probs

        q = self.q_proj(x).view(num_rows, num_cols, batch_size, self.num_heads, self.head_dim)
        k = self.k_proj(x).view(num_rows, num_cols, batch_size, self.num_heads, self.head_dim)
        v = self.v_proj(x).view(num_rows, num_cols, batch_size, self.num_heads, self.head_dim)
        q *= self.scaling

        attn_weights = torch.einsum("icnhd,jcnhd->hcnij", q, k)
        if self_attn_padding_mask is not None:
            # (batch, rows, cols) -> (1, cols, batch, 1, rows): padding of the key rows
            attn_weights = attn_weights.masked_fill(
                self_attn_padding_mask.permute(2, 0, 1).unsqueeze(0).unsqueeze(3),
                -10000,
            )

        attn_probs = attn_weights.softmax(-1)
        attn_probs = self.dropout_module(attn_probs)
        context = torch.einsum("hcnij,jcnhd->icnhd", attn_probs, v)
        context = context.contiguous().view(num_rows, num_cols, batch_size, embed_dim)
        return self.out_proj(context), attn_probs
