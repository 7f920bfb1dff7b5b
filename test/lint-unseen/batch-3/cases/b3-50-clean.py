# case: b3-50-clean
# modelled-on: deniskurlov/gpt-from-scratch https://github.com/deniskurlov/gpt-from-scratch/commit/b2a5a871e8cf4133576a32157c090389421bab96
# label: correct
# class: clean
# pattern: a GPT with a sliding-window KV cache: the new queries and the cached window of keys get rotary positions from their absolute offsets, heads are split with transpose(-2, -3), the keys transposed with transpose(-1, -2), and the causal mask is built from two aranges as a keep mask (j <= T_total - T_new + i) that is inverted at the -inf fill; a single-head attention in the same module slices a tril buffer
# why: the new queries are the last T_new of the T_total positions in the window, so query i may see keys 0 .. T_total - T_new + i: bottom-right aligned, right for prefill (T_new == T_total) and decoding alike; ~keep fills exactly the future keys; every row keeps at least its own key, so -inf never fills a whole row; transpose(-2, -3) only moves the head axis in front of the sequence axis
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/deniskurlov/gpt-from-scratch https://github.com/deniskurlov/gpt-from-scratch/commit/b2a5a871e8cf4133576a32157c090389421bab96 src/attention.py
from math import sqrt

import torch
import torch.nn.functional as F
from torch import nn


def rotate(x, start_pos: int, base: float = 10000.0):
    """Rotary embedding of x (B, H, T, D) for absolute positions start_pos .. start_pos + T - 1."""
    d = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, device=x.device, dtype=torch.float32) / d))
    pos = torch.arange(start_pos, start_pos + x.shape[-2], device=x.device, dtype=torch.float32)
    angles = torch.outer(pos, inv_freq)
    cos, sin = angles.cos().repeat_interleave(2, -1), angles.sin().repeat_interleave(2, -1)
    x_pairs = torch.stack((-x[..., 1::2], x[..., ::2]), dim=-1).flatten(-2)
    return x * cos + x_pairs * sin


class SingleHeadAttention(nn.Module):
    def __init__(self, t_max: int, d_k: int, d_v: int, d_model: int):
        super().__init__()
        self.register_buffer("allowed", torch.tril(torch.ones(t_max, t_max)).bool())
        self.d_k, self.d_v = d_k, d_v
        self.qkv = nn.Linear(d_model, 2 * d_k + d_v)
        self.out = nn.Linear(d_v, d_model)

    def forward(self, x):
        q, k, v = self.qkv(x).split([self.d_k, self.d_k, self.d_v], dim=-1)
        scores = q @ k.transpose(-1, -2) / sqrt(self.d_k)
        t = x.shape[1]
        scores = scores.masked_fill(self.allowed[:t, :t].logical_not(), float("-inf"))
        return self.out(F.softmax(scores, dim=-1) @ v)


class WindowedMultiHeadAttention(nn.Module):
    def __init__(self, n_heads: int, d_model: int):
        super().__init__()
        self.n_heads, self.d_model, self.head_dim = n_heads, d_model, d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, cache=None):
        B, t_new = x.shape[:2]
        q, k, v = self.qkv(x).split([self.d_model] * 3, dim=-1)
        q, k, v = (p.view(B, t_new, self.n_heads, self.head_dim).transpose(-2, -3) for p in (q, k, v))

        if cache is None:
            appended_before, window_start = 0, 0
            keys, values = k, v
        else:
            appended_before = cache.total_appended
            cache.append(k, v)  # drops the oldest entries once the window is full
            keys, values = cache.get()
            window_start = cache.window_start
        t_total = keys.shape[-2]

        q = rotate(q, start_pos=appended_before)
        keys = rotate(keys, start_pos=window_start)

        scores = q @ keys.transpose(-1, -2) / sqrt(self.head_dim)  # (B, H, t_new, t_total)
        i = torch.arange(t_new, device=x.device)
        j = torch.arange(t_total, device=x.device)
        keep = j[None, :] <= (t_total - t_new + i[:, None])
        scores = scores.masked_fill(~keep, float("-inf"))

        out = F.softmax(scores, dim=-1) @ values
        out = out.transpose(-2, -3).reshape(B, t_new, self.d_model)
        return self.out(out), cache
