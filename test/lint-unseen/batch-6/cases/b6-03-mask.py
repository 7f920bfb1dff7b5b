# case: b6-03-mask
# modelled-on: ai4co/rl4co https://github.com/ai4co/rl4co/commit/f4bc96ca3a24440df5153624fc465833ac74b463
# label: buggy
# class: real-bug
# pattern: a combinatorial-optimisation policy library's attention module: a fallback scaled_dot_product_attention for PyTorch < 2.0 defined in an except ImportError branch with the same signature as torch's, used by a fused-QKV multi-head attention with a causal flag and a boolean key padding mask (True = attend, as torch's SDPA)
# why: buggy: the fallback builds triu(ones, diagonal=1), which is 1 strictly above the diagonal (the future keys), and then fills where that mask == 0, so for is_causal=True it hides the past and the diagonal and lets every query attend only to later keys; the fix commit ("[BugFix] refactor scaled_dot_product_attention") fills where the triu mask is True. The real module documents its causal flag but did not pass it on; the case passes it, as its docstring says
# source: https://github.com/ai4co/rl4co https://github.com/ai4co/rl4co/commit/8a077a60ac68f40e78ebe06ea2f7af84b2aec621 rl4co/models/nn/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

try:
    from torch.nn.functional import scaled_dot_product_attention
except ImportError:

    def scaled_dot_product_attention(Q, K, V, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
        """Scaled dot-product attention without fused kernels (PyTorch < 2.0)."""
        if scale is None:
            scale = math.sqrt(Q.size(-1))
        attn_scores = torch.matmul(Q, K.transpose(-2, -1)) / scale  # (B, H, Lq, Lk)
        if is_causal:
            mask = torch.triu(torch.ones_like(attn_scores), diagonal=1)
            attn_scores = attn_scores.masked_fill(mask == 0, float("-inf"))  # expect: ATT002
        if attn_mask is not None:
            # boolean mask, True = take part in attention (as in torch's SDPA)
            attn_scores = attn_scores.masked_fill(attn_mask == 0, float("-inf"))
        attn_probs = F.softmax(attn_scores, dim=-1)
        if dropout_p > 0.0:
            attn_probs = F.dropout(attn_probs, p=dropout_p)
        return torch.matmul(attn_probs, V)


class MultiHeadAttention(nn.Module):
    """Fused-QKV multi-head attention.

    Args:
        embed_dim: total dimension of the model
        num_heads: number of heads
        causal: whether to apply a causal mask to the attention scores
    """

    def __init__(self, embed_dim, num_heads, bias=True, attention_dropout=0.0, causal=False):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.causal = causal
        self.attention_dropout = attention_dropout
        assert embed_dim % num_heads == 0
        self.Wqkv = nn.Linear(embed_dim, 3 * embed_dim, bias=bias)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)

    def forward(self, x, key_padding_mask=None):
        """x: (batch, seqlen, embed_dim); key_padding_mask: bool (batch, 1, 1, seqlen), True = real node"""
        q, k, v = rearrange(self.Wqkv(x), "b s (three h d) -> three b h s d", three=3, h=self.num_heads).unbind(dim=0)
        out = scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=key_padding_mask,
            dropout_p=self.attention_dropout if self.training else 0.0,
            is_causal=self.causal,
        )
        return self.out_proj(rearrange(out, "b h s d -> b s (h d)"))


class AutoregressiveStepEncoder(nn.Module):
    def __init__(self, embed_dim=128, num_heads=8, num_layers=3):
        super().__init__()
        self.layers = nn.ModuleList([MultiHeadAttention(embed_dim, num_heads, causal=True) for _ in range(num_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(embed_dim) for _ in range(num_layers)])

    def forward(self, h):
        for attn, norm in zip(self.layers, self.norms):
            h = norm(h + attn(h))
        return h
