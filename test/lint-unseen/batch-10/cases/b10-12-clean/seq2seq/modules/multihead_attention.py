# case: b10-12-clean
# modelled-on: CUNY-CL/yoyodyne https://github.com/CUNY-CL/yoyodyne/commit/7a84f2c
# label: correct
# class: clean
# pattern: a drop-in replacement for nn.MultiheadAttention (RoPE on q and k) that keeps its conventions: key_padding_mask True = padding turned additive with masked_fill(kpm, NEG_INF) from a defaults module, a boolean attn_mask from generate_square_subsequent_mask(dtype=torch.bool) filled where True, softmax over dim=2 of (B*H, Tq, Tk) scores
# why: generate_square_subsequent_mask fills triu(full(-inf), 1), and -inf cast to bool is True, so the boolean mask is True exactly on the future, as nn.MultiheadAttention's boolean masks mean; both masks mark what to hide, so filling where True is right; dim=2 is the key axis of the bmm scores
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/CUNY-CL/yoyodyne https://github.com/CUNY-CL/yoyodyne/commit/7a84f2c yoyodyne/models/modules/multihead_attention.py
import math

import torch
from torch import nn

from .. import defaults
from . import position


class RotaryMultiheadAttention(nn.Module):
    """Multi-head attention with rotary positional encoding, batch-first, same mask conventions as nn.MultiheadAttention."""

    def __init__(self, embed_dim, rope: position.RotaryPositionalEncoding, attention_heads=defaults.ATTENTION_HEADS, dropout=defaults.DROPOUT):
        super().__init__()
        self.attention_heads = attention_heads
        self.head_dim = embed_dim // attention_heads
        self.embed_dim = embed_dim
        self.dropout = dropout
        self.rope = rope
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None, is_causal=False):
        """key_padding_mask: B x source_length (True = padding); attn_mask: additive or bool."""
        b, tq, tk = query.size(0), query.size(1), key.size(1)
        if is_causal and attn_mask is None:
            attn_mask = nn.Transformer.generate_square_subsequent_mask(tq, device=query.device, dtype=torch.bool)
        h, d = self.attention_heads, self.head_dim
        q = self.rope.rotate(self.q_proj(query).view(b, tq, h, d), tq)
        k = self.rope.rotate(self.k_proj(key).view(b, tk, h, d), tk)
        v = self.v_proj(value).view(b, tk, h, d)
        # -> B * heads x length x head_dim
        q = q.permute(0, 2, 1, 3).reshape(b * h, tq, d)
        k = k.permute(0, 2, 1, 3).reshape(b * h, tk, d)
        v = v.permute(0, 2, 1, 3).reshape(b * h, tk, d)

        additive_kpm = None
        if key_padding_mask is not None:
            kpm = key_padding_mask[:, None, None, :].expand(b, h, tq, tk).reshape(b * h, tq, tk)
            additive_kpm = torch.zeros_like(kpm, dtype=q.dtype).masked_fill(kpm.to(torch.bool), defaults.NEG_INF)
        combined = additive_kpm
        if attn_mask is not None:
            if attn_mask.dtype == torch.bool:
                attn_f = torch.zeros(attn_mask.shape, dtype=q.dtype, device=q.device).masked_fill(attn_mask, defaults.NEG_INF)
            else:
                attn_f = attn_mask
            combined = attn_f if additive_kpm is None else attn_f + additive_kpm

        weights = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d)
        if combined is not None:
            weights = weights + combined
        weights = torch.softmax(weights, dim=2)
        if self.training and self.dropout > 0.0:
            weights = nn.functional.dropout(weights, p=self.dropout)
        out = torch.bmm(weights, v).reshape(b, h, tq, d).permute(0, 2, 1, 3).reshape(b, tq, self.embed_dim)
        return self.out_proj(out)
