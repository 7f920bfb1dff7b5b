# case: t8a-04-clean
# modelled-on: ovococjsjs-gif/miniLLM https://github.com/ovococjsjs-gif/miniLLM/commit/99e661c172f2bbf2cb5e25d72a869a9f4102f8a0
# label: correct
# class: clean
# pattern: a research mini-LLM's GQA attention with QK-norm, RoPE offset by the cache length and an optional sliding window; forward_cached chooses SDPA's is_causal=True only without a cache and window, is_causal=False for a single new token, and otherwise a boolean mask built from absolute query and key positions (True = attend); a generation module in another file prefills and then decodes one token at a time
# why: correct: is_causal=True (top-left) is only used when there is no cache, so T_q == T_k; one cached-decode query may see every key; the explicit mask compares absolute positions (key <= offset + i, and within the window), which is bottom-right aligned, in SDPA's boolean convention where True means the position takes part
# looks-like: ATT002, ATT008
# source: https://github.com/ovococjsjs-gif/miniLLM https://github.com/ovococjsjs-gif/miniLLM/commit/99e661c172f2bbf2cb5e25d72a869a9f4102f8a0 src/minillm/modules/attention.py
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class KV:
    """Unexpanded GQA keys and values, (batch, kv_heads, time, dim)."""

    key: torch.Tensor
    value: torch.Tensor

    @property
    def length(self) -> int:
        return int(self.key.shape[-2])


def rope(q, k, base: float, offset: int = 0):
    d = q.shape[-1]
    inv = 1.0 / (base ** (torch.arange(0, d, 2, device=q.device).float() / d))
    pos = torch.arange(offset, offset + q.shape[-2], device=q.device).float()
    ang = torch.outer(pos, inv)
    cos, sin = torch.cat([ang, ang], -1).cos(), torch.cat([ang, ang], -1).sin()
    rot = lambda x: torch.cat([-x[..., d // 2 :], x[..., : d // 2]], -1)
    return q * cos + rot(q) * sin, k * cos + rot(k) * sin


class WindowedGQA(nn.Module):
    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int, head_dim: int, base: float = 10000.0, window: int | None = None, dropout: float = 0.0):
        super().__init__()
        self.n_heads, self.n_kv, self.hd = n_heads, n_kv_heads, head_dim
        self.base, self.window, self.dropout = base, window, dropout
        self.q_proj = nn.Linear(d_model, n_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(d_model, n_kv_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(d_model, n_kv_heads * head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * head_dim, d_model, bias=False)
        self.q_norm = nn.RMSNorm(head_dim)
        self.k_norm = nn.RMSNorm(head_dim)

    def forward_cached(self, x: torch.Tensor, cache: KV | None = None):
        b, t, _ = x.shape
        offset = cache.length if cache is not None else 0
        q = self.q_norm(self.q_proj(x).view(b, t, self.n_heads, self.hd).transpose(1, 2))
        k_new = self.k_norm(self.k_proj(x).view(b, t, self.n_kv, self.hd).transpose(1, 2))
        v_new = self.v_proj(x).view(b, t, self.n_kv, self.hd).transpose(1, 2)
        q, k_new = rope(q, k_new, self.base, offset=offset)

        key = k_new if cache is None else torch.cat((cache.key, k_new), dim=-2)
        value = v_new if cache is None else torch.cat((cache.value, v_new), dim=-2)
        groups = self.n_heads // self.n_kv
        k_all = key.repeat_interleave(groups, dim=1) if groups > 1 else key
        v_all = value.repeat_interleave(groups, dim=1) if groups > 1 else value
        p = self.dropout if self.training else 0.0

        if cache is None and self.window is None:
            out = F.scaled_dot_product_attention(q, k_all, v_all, dropout_p=p, is_causal=True)
        elif t == 1 and self.window is None:
            # every cached key lies in the new token's past: no mask needed
            out = F.scaled_dot_product_attention(q, k_all, v_all, dropout_p=p, is_causal=False)
        else:
            q_pos = torch.arange(offset, offset + t, device=x.device)[:, None]
            k_pos = torch.arange(key.shape[-2], device=x.device)[None, :]
            allowed = k_pos <= q_pos
            if self.window is not None:
                allowed &= k_pos > q_pos - self.window
            out = F.scaled_dot_product_attention(q, k_all, v_all, attn_mask=allowed, dropout_p=p, is_causal=False)

        out = out.transpose(1, 2).contiguous().view(b, t, self.n_heads * self.hd)
        return self.o_proj(out), KV(key=key, value=value)

    def forward(self, x):
        return self.forward_cached(x)[0]
