# case: b8-10-clean
# modelled-on: zhL-d/llm-from-scratch https://github.com/zhL-d/llm-from-scratch/commit/c3b1c7e33decbcd13666e25ff1407d64cb594ad1
# label: correct
# class: clean
# pattern: a course-assignment LM (CS336-style): the causal self-attention module builds its mask as ~triu(ones, diagonal=1) (True = may attend) and passes it to an attention module that turns it into an additive bias with torch.where(mask, zeros_like(scores), -inf), adds it to the scaled logits and normalises with a hand-written stable softmax from another module; weights are stored (d_out, d_in) and applied as x @ W.T
# why: correct: where(mask, 0, -inf) keeps the allowed positions and sends the future to -inf, which is the keep-mask convention the assignment specifies; every row keeps its diagonal so no row is all -inf; the scale is 1/sqrt(d_k) of the per-head width and the softmax runs over the key axis
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/zhL-d/llm-from-scratch https://github.com/zhL-d/llm-from-scratch/commit/c3b1c7e33decbcd13666e25ff1407d64cb594ad1 cs336_basics/scaled_dot_product_attention.py
import math

import torch
import torch.nn as nn
from torch import Tensor

from basics import softmax as sm


class ScaledDotProductAttention(nn.Module):
    def forward(self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> Tensor:
        """q, k: (..., seq, d_k); v: (..., seq, d_v); mask: (..., queries, keys), True = may attend."""
        logits = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            bias = torch.where(mask, torch.zeros_like(logits), float("-inf"))
            logits = logits + bias
        return sm.softmax(logits, -1) @ v
