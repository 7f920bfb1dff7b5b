# case: b27-06-fill
# modelled-on: Reinhrd/transformer-pytorch-scratch https://github.com/Reinhrd/transformer-pytorch-scratch/commit/c2ee1832b39bcb42e28d635a06c7f991b2174501
# label: buggy
# class: real-bug
# pattern: a from-scratch encoder / decoder / causal-LM transformer (an annotated study copy of a Lightning implementation): every head is its own module with bias-free q/k/v Linears, scores q @ k.mT / sqrt(key_dim), an (L, L) mask built from the tokenizer's 0/1 attention_mask as 1 - m[:, None] * m[:, :, None], OR-ed with an upper triangle for the decoder and the causal LM, written into the scores in place with masked_fill_(mask.bool(), -EPS), where EPS is torch.finfo().eps from a constants module, then softmax(dim=-1) @ v; heads are concatenated and projected
# why: buggy: -EPS is about -1.2e-7, practically zero, so the "masked" scores are set to about 0 instead of a large negative number: padded keys and, in the decoder and the causal language model, future tokens keep a weight comparable to the real ones after the softmax, so the look-ahead mask does not stop the model from seeing the token it must predict; the fill should be -inf or a large negative value (torch.finfo(scores.dtype).min). The mask polarity (1 where either position is padding or in the future), the scale and the axis are right
# source: https://github.com/Reinhrd/transformer-pytorch-scratch https://github.com/Reinhrd/transformer-pytorch-scratch/commit/c2ee1832b39bcb42e28d635a06c7f991b2174501 transformer/modules/attention.py
import math

import torch
from torch import nn

from txf import constants


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, model_dim, key_dim, value_dim, num_heads, causal=False):
        super().__init__()
        self.heads = nn.ModuleList(SelfAttentionHead(model_dim, key_dim, value_dim, causal) for _ in range(num_heads))
        self.proj = nn.Linear(value_dim * num_heads, model_dim)

    def forward(self, q, k, v, masks):
        heads = torch.cat([head(q, k, v, masks=masks) for head in self.heads], dim=-1)
        return self.proj(heads)  # (batch, seq_len, model_dim)


class SelfAttentionHead(nn.Module):
    def __init__(self, model_dim, key_dim, value_dim, causal=False):
        super().__init__()
        self.key_dim = key_dim
        self.causal = causal
        self.query_proj = nn.Linear(model_dim, key_dim, bias=False)
        self.key_proj = nn.Linear(model_dim, key_dim, bias=False)
        self.value_proj = nn.Linear(model_dim, value_dim, bias=False)

    def forward(self, q, k, v, masks):
        # masks: (batch, seq_len), 1 on real tokens and 0 on padding (the tokenizer's attention_mask)
        q = self.query_proj(q)
        k = self.key_proj(k)
        v = self.value_proj(v)

        scores = q @ k.mT / math.sqrt(self.key_dim)  # (batch, seq_len, seq_len)

        # 1 wherever the query or the key is padding
        attn_mask = 1 - masks.unsqueeze(1) * masks.unsqueeze(-1)
        if self.causal:
            # look-ahead mask: the strict upper triangle
            attn_mask |= torch.triu(torch.ones_like(scores, dtype=int), diagonal=1)

        scores.masked_fill_(attn_mask.bool(), -constants.EPS)  # expect: ATT007

        return nn.functional.softmax(scores, dim=-1) @ v  # (batch, seq_len, value_dim)
