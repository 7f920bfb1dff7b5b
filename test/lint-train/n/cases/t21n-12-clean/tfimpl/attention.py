# case: t21n-12-clean
# modelled-on: Fyrthuz/Transformer-implementation https://github.com/Fyrthuz/Transformer-implementation/commit/5953a684e5e11d5579c8123f486aa25558f5e657
# label: correct
# class: clean
# pattern: a registry of attention variants for ablation studies: the dilated variant computes q @ k^T and divides by math.sqrt(d_k) only when self.scale_attention is set (a flag the block passes from a config dataclass in another module, default True, documented in the project's attention docs as "scale scores by 1/sqrt(d_k) before softmax"); a boolean dilation mask (True outside the dilated window, the diagonal band always allowed) is filled with -inf, an optional caller mask is applied with masked_fill(mask == 0, -inf), and the softmax is over the last axis
# why: correct: with the default configuration the scores are divided by sqrt(d_k), the per-head width; turning the documented option off is the user's explicit choice, not an omission; the dilation mask is True where attention is blocked and never blocks |i - j| <= 2, so every row keeps its diagonal; the caller mask is a keep mask (0 = blocked)
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/Fyrthuz/Transformer-implementation https://github.com/Fyrthuz/Transformer-implementation/commit/5953a684e5e11d5579c8123f486aa25558f5e657 transformer_impl/attention/dilated_attn.py
import math

import torch

ATTENTION_REGISTRY = {}


def register_attention(name):
    def decorator(cls):
        ATTENTION_REGISTRY[name] = cls
        return cls
    return decorator


def get_attention(name, **kwargs):
    if name not in ATTENTION_REGISTRY:
        raise ValueError(f"Unknown attention: {name}")
    return ATTENTION_REGISTRY[name](**kwargs)


@register_attention("dilated")
class DilatedAttention(torch.nn.Module):
    def __init__(self, d_model, num_heads, window_size=64, dilation=4, dropout=0.1, scale_attention=True, **kwargs):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.window_size = window_size
        self.dilation = dilation
        self.scale_attention = scale_attention
        self.w_q = torch.nn.Linear(d_model, d_model, bias=False)
        self.w_k = torch.nn.Linear(d_model, d_model, bias=False)
        self.w_v = torch.nn.Linear(d_model, d_model, bias=False)
        self.w_o = torch.nn.Linear(d_model, d_model, bias=False)
        self.dropout = torch.nn.Dropout(dropout)

    def forward(self, x, mask=None):
        B, T, _ = x.shape
        q = self.w_q(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)
        k = self.w_k(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)
        v = self.w_v(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1))
        if self.scale_attention:
            scores = scores / math.sqrt(self.d_k)

        blocked = torch.ones(T, T, device=x.device, dtype=torch.bool)
        half_w = self.window_size // 2
        for i in range(T):
            for j in range(max(0, i - half_w * self.dilation), min(T, i + half_w * self.dilation + 1)):
                if (j - i) % self.dilation == 0 or abs(j - i) <= 2:
                    blocked[i, j] = False
        scores = scores.masked_fill(blocked[None, None, :, :], float("-inf"))

        if mask is not None:
            if mask.dim() == 3:
                mask = mask.unsqueeze(1)
            scores = scores.masked_fill(mask == 0, float("-inf"))

        attn = torch.dropout(torch.softmax(scores, dim=-1), self.dropout.p, train=self.training)
        context = torch.matmul(attn, v).transpose(1, 2).contiguous().view(B, T, self.d_model)
        return self.w_o(context)
