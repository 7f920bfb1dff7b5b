# case: mask-fairseq-kpm-masked-fill
# modelled-on: facebookresearch/fairseq https://github.com/facebookresearch/fairseq/blob/main/fairseq/modules/multihead_attention.py
# label: correct
# pattern: fairseq-style time-first attention: q *= head_dim ** -0.5 right after the projection, bmm over (B*H, T, S), key_padding_mask (True = pad) filled with -inf on a (B, H, T, S) view, softmax in float32
# why: the scale is applied once to q; masked_fill uses the pad mask with the right polarity; only padded keys are -inf so no row is fully masked unless a whole source is padding
# looks-like: ATT002, ATT003, ATT007
from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == self.embed_dim, "embed_dim must be divisible by num_heads"
        self.scaling = self.head_dim ** -0.5
        self.dropout = dropout
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Optional[Tensor] = None, attn_mask: Optional[Tensor] = None):
        tgt_len, bsz, embed_dim = query.size()  # time-first (T, B, C)
        src_len = key.size(0)
        q = self.q_proj(query)
        k = self.k_proj(key)
        v = self.v_proj(value)
        q *= self.scaling

        q = q.contiguous().view(tgt_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)  # (B*H, T, hd)
        k = k.contiguous().view(src_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)  # (B*H, S, hd)
        v = v.contiguous().view(src_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)

        attn_weights = torch.bmm(q, k.transpose(1, 2))  # (B*H, T, S)
        if attn_mask is not None:
            attn_weights += attn_mask.unsqueeze(0)  # additive (T, S) float mask
        if key_padding_mask is not None:
            attn_weights = attn_weights.view(bsz, self.num_heads, tgt_len, src_len)
            attn_weights = attn_weights.masked_fill(
                key_padding_mask.unsqueeze(1).unsqueeze(2).to(torch.bool),
                float("-inf"),
            )
            attn_weights = attn_weights.view(bsz * self.num_heads, tgt_len, src_len)

        attn_weights_float = F.softmax(attn_weights, dim=-1, dtype=torch.float32)
        attn_probs = F.dropout(attn_weights_float.type_as(attn_weights), p=self.dropout, training=self.training)
        attn = torch.bmm(attn_probs, v)  # (B*H, T, hd)
        attn = attn.transpose(0, 1).contiguous().view(tgt_len, bsz, embed_dim)
        return self.out_proj(attn), attn_weights_float.view(bsz, self.num_heads, tgt_len, src_len)
