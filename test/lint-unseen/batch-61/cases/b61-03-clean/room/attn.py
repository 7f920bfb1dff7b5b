# case: b61-03-clean
# modelled-on: Pythonista7/transformer-room https://github.com/Pythonista7/transformer-room/commit/4e12565103f48d744baf18b868040dfcd2d1884d
# label: correct
# class: clean
# pattern: a hand-written decoder-only language model (a folder: `prims.py` holds a hand-written max-shifted softmax module and a dense layer; `attn.py` a packed-projection multi-head self-attention whose `scale` argument is a divisor defaulting to sqrt(head_dim), which builds one boolean keep mask (True = may attend) from a lower triangle when `is_causal` (the default) or from a caller's mask, ANDs in a key validity mask (`key_valid`, True = real token), fills with -inf where the keep mask is False and resets rows with no valid key to 0 before the softmax; `block.py` calls it with `is_causal=True` and no cache; generation re-runs the whole window)
# why: correct: the scores are divided by sqrt(head_dim) (the divisor is named `scale`, as in the original, and the default is the square root of the per-head width); every mask is a keep mask combined with `&` and inverted once for `masked_fill`, so the triangle keeps the past and the diagonal, and the key mask keeps real tokens as its own comment says; the -inf fill cannot produce NaN because rows with no valid key are reset to 0 before the softmax (a uniform row the model never reads for a loss); the softmax helper normalises over the keys (dim=-1); `is_causal=True` is only used on full sequences (no KV cache: every generation step re-runs the window)
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/Pythonista7/transformer-room https://github.com/Pythonista7/transformer-room/commit/4e12565103f48d744baf18b868040dfcd2d1884d src/components/attention/basic_mh_self_attn.py
import math

import torch
from torch import nn

from room.prims import Dense, StableSoftmax


class PackedSelfAttention(nn.Module):
    def __init__(self, width, out_width, heads, bias=True):
        super().__init__()
        assert width % heads == 0, "width must split evenly over the heads"
        self.width, self.heads = width, heads
        self.head_dim = width // heads
        self.qkv = Dense(width, 3 * width, bias=bias)
        self.proj = Dense(width, out_width, bias=bias)
        self.normalise = StableSoftmax(dim=-1)

    def _heads(self, t, b, n):
        return t.reshape(b, n, self.heads, self.head_dim).transpose(1, 2)

    def forward(self, x, mask=None, key_valid=None, scale=None, is_causal=True):
        """mask: (n, n), (b, n, n) or (b, 1, n, n), True/1 where query i may look at key j.
        key_valid: (b, n), True for real tokens."""
        b, n, _ = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = self._heads(q, b, n), self._heads(k, b, n), self._heads(v, b, n)

        if scale is None:
            scale = math.sqrt(self.head_dim)
        scores = q @ k.transpose(-2, -1) / scale

        keep = torch.ones(b, 1, n, n, dtype=torch.bool, device=x.device)
        if is_causal:
            keep = keep & torch.tril(torch.ones(n, n, dtype=torch.bool, device=x.device))[None, None]
        elif mask is not None:
            m = mask.to(device=x.device, dtype=torch.bool)
            if m.dim() == 2:
                m = m[None, None]
            elif m.dim() == 3:
                m = m[:, None]
            keep = keep & m
        if key_valid is not None:
            keep = keep & key_valid.to(device=x.device, dtype=torch.bool)[:, None, None, :]

        scores = scores.masked_fill(~keep, float("-inf"))
        empty = ~keep.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(empty, 0.0)
        weights = self.normalise(scores)

        out = (weights @ v).transpose(1, 2).reshape(b, n, self.width)
        return self.proj(out)
