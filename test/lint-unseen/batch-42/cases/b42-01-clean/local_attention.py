# case: b42-01-clean
# modelled-on: DebmalyaSen34/HeliumLM https://github.com/DebmalyaSen34/HeliumLM/commit/e7a0b8fe81928e777c90c7514da4020b2082c494
# label: correct
# class: clean
# pattern: small decoder LM (a folder: the attention module and the decoder block that builds it from a config dict): grouped-query attention with RoPE; a float buffer keeps a causal band of width window_size (tril of ones minus the tril shifted down by window_size), sliced to T and turned into a boolean mask (True = may attend) for F.scaled_dot_product_attention, with a manual fallback that fills mask == 0 with -inf and scales by 1/sqrt(head_dim); no KV cache (generation re-runs the prefix)
# why: correct: SDPA treats a boolean attn_mask as True = take part, which is what the band holds (1 inside the causal window); the fallback's masked_fill(mask == 0, -inf) masks the same positions before the softmax over the keys; the band always keeps the diagonal so no row is fully masked; the window size and the maximal length come from the config through the block
# looks-like: ATT002, ATT003, ATT006, ATT008
# source: https://github.com/DebmalyaSen34/HeliumLM https://github.com/DebmalyaSen34/HeliumLM/commit/e7a0b8fe81928e777c90c7514da4020b2082c494 src/model/attention.py
import math

import torch
import torch.nn.functional as F
from torch import nn

from rotary import rotate_qk


class WindowedGQA(nn.Module):
    """Grouped-query self-attention restricted to a sliding causal window."""

    def __init__(self, width, heads, kv_heads, window, context, p_drop=0.0):
        super().__init__()
        self.heads = heads
        self.kv_heads = kv_heads
        self.head_width = width // heads
        self.group = heads // kv_heads
        self.window = window if window is not None else context
        self.wq = nn.Linear(width, width, bias=False)
        self.wk = nn.Linear(width, kv_heads * self.head_width, bias=False)
        self.wv = nn.Linear(width, kv_heads * self.head_width, bias=False)
        self.wo = nn.Linear(width, width, bias=False)
        self.drop_p = p_drop
        self.attn_drop = nn.Dropout(p_drop)
        self.out_drop = nn.Dropout(p_drop)

        lower = torch.tril(torch.ones(context, context))
        if self.window < context:
            # drop everything more than `window` steps in the past
            too_old = torch.tril(torch.ones(context, context), diagonal=-self.window)
            band = lower - too_old
        else:
            band = lower
        self.register_buffer("band", band[None, None])

    def forward(self, h, freqs):
        b, t, _ = h.shape
        q = self.wq(h).view(b, t, self.heads, self.head_width)
        k = self.wk(h).view(b, t, self.kv_heads, self.head_width)
        v = self.wv(h).view(b, t, self.kv_heads, self.head_width)
        q, k = rotate_qk(q, k, freqs)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        k = k.repeat_interleave(self.group, dim=1)
        v = v.repeat_interleave(self.group, dim=1)

        keep = self.band[:, :, :t, :t]
        if hasattr(F, "scaled_dot_product_attention"):
            out = F.scaled_dot_product_attention(
                q, k, v,
                attn_mask=keep.bool(),
                dropout_p=self.drop_p if self.training else 0.0,
            )
        else:
            logits = q @ k.transpose(-2, -1) / math.sqrt(self.head_width)
            logits = logits.masked_fill(keep == 0, float("-inf"))
            probs = self.attn_drop(F.softmax(logits, dim=-1))
            out = probs @ v

        out = out.transpose(1, 2).contiguous().view(b, t, -1)
        return self.out_drop(self.wo(out))
