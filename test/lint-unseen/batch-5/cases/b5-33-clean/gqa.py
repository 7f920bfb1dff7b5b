# case: b5-33-clean
# modelled-on: charlieajohnson/kv-cache-tradeoffs https://github.com/charlieajohnson/kv-cache-tradeoffs/commit/20f932fe819678e23d4d4d87e9ed3081eb35bcff
# label: correct
# class: clean
# pattern: a grouped-query attention for a KV-cache benchmark: the cache is a dataclass of keys and values in another module, new keys are concatenated onto it on the position axis, the key/value heads are repeated to the query heads, scores come from einsum("bhtd,bhsd->bhts") times head_dim ** -0.5, and the causal mask is built from positions: query positions arange(t) + cache_len against key positions arange(kv_len), True where key <= query, inverted with ~ for a masked_fill with finfo(dtype).min
# why: correct: offsetting the query positions by the cache length aligns the causal mask bottom-right, so a chunk of new tokens sees every cached key and the new keys up to itself; the einsum contracts the feature axis (no transpose needed); ~mask hides the future, and finfo.min is finite in any dtype
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/charlieajohnson/kv-cache-tradeoffs https://github.com/charlieajohnson/kv-cache-tradeoffs/commit/20f932fe819678e23d4d4d87e9ed3081eb35bcff src/kvbench/models/attention/gqa.py
import torch
import torch.nn.functional as F
from torch import nn

from cache_state import CacheState


class GQA(nn.Module):
    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int, dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.group_size = n_heads // n_kv_heads
        self.d_head = d_model // n_heads
        self.q = nn.Linear(d_model, n_heads * self.d_head, bias=False)
        self.k = nn.Linear(d_model, n_kv_heads * self.d_head, bias=False)
        self.v = nn.Linear(d_model, n_kv_heads * self.d_head, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.scale = self.d_head**-0.5

    def _causal_mask(self, q_len: int, kv_len: int, cache_len: int, device) -> torch.Tensor:
        query_pos = torch.arange(q_len, device=device) + cache_len
        key_pos = torch.arange(kv_len, device=device)
        return key_pos.unsqueeze(0) <= query_pos.unsqueeze(1)

    def forward(self, x: torch.Tensor, cache: CacheState | None = None) -> tuple[torch.Tensor, CacheState]:
        b, t, c = x.shape
        q = self.q(x).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = self.k(x).view(b, t, self.n_kv_heads, self.d_head).transpose(1, 2)
        v = self.v(x).view(b, t, self.n_kv_heads, self.d_head).transpose(1, 2)
        cache_len = 0 if cache is None else cache.keys.size(2)
        if cache is not None:
            k = torch.cat([cache.keys, k], dim=2)
            v = torch.cat([cache.values, v], dim=2)
        kv_len = k.size(2)
        k_all = k.repeat_interleave(self.group_size, dim=1)
        v_all = v.repeat_interleave(self.group_size, dim=1)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k_all) * self.scale
        mask = self._causal_mask(t, kv_len, cache_len, x.device)
        scores = scores.masked_fill(~mask[None, None, :, :], torch.finfo(scores.dtype).min)
        attn = F.softmax(scores, dim=-1)
        y = torch.einsum("bhts,bhsd->bhtd", self.dropout(attn), v_all)
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y), CacheState(k, v)
