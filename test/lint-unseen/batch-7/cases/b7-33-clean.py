# case: b7-33-clean
# modelled-on: rishika1099/KV-Cache-Implementation https://github.com/rishika1099/KV-Cache-Implementation/commit/728bc5e4d993df366e2246342c6f74574c3ae666
# label: correct
# class: clean
# pattern: a Llama attention layer for KV-cache compression experiments (top-k token selection): grouped-query heads repeated with repeat_kv, a prefill branch that calls SDPA with is_causal=True on the prompt alone, and a decode branch (one new token) that concatenates the cached keys and values and calls SDPA with is_causal=False, or attends to a selected subset of the cache when it exceeds the budget; the layer returns the cache as a (keys, values, length) tuple
# why: correct: is_causal=True is used only at prefill, where the queries and keys are the same tokens; in decoding the single new query may see every cached key, which is what is_causal=False gives; the sink/top-k/local subset always ends at the newest key
# looks-like: ATT002, ATT008
# source: https://github.com/rishika1099/KV-Cache-Implementation https://github.com/rishika1099/KV-Cache-Implementation/commit/728bc5e4d993df366e2246342c6f74574c3ae666 methods/llama_topk_model.py
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    b, h, s, d = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None, :, :].expand(b, h, n_rep, s, d).reshape(b, h * n_rep, s, d)


class TopKLlamaAttention(nn.Module):
    def __init__(self, hidden_size=4096, num_heads=32, num_kv_heads=8, n_sink=128, top_k=4096, n_local=4096):
        super().__init__()
        self.num_heads, self.num_kv_heads = num_heads, num_kv_heads
        self.head_dim = hidden_size // num_heads
        self.groups = num_heads // num_kv_heads
        self.n_sink, self.top_k, self.n_local = n_sink, top_k, n_local
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)

    def forward(self, hidden_states, cos, sin, past_key_value: Optional[Tuple[torch.Tensor, torch.Tensor, int]] = None, use_cache=False):
        bsz, q_len, _ = hidden_states.size()
        q = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, q_len, self.num_kv_heads, self.head_dim).transpose(1, 2)
        q, k = q * cos + self._rotate(q) * sin, k * cos + self._rotate(k) * sin

        if past_key_value is not None:
            # decode: one new token against the cache
            K_full = torch.cat([past_key_value[0], k], dim=2)
            V_full = torch.cat([past_key_value[1], v], dim=2)
            kv_len = K_full.shape[2]
            if kv_len <= self.n_sink + self.top_k + self.n_local:
                out = F.scaled_dot_product_attention(q, repeat_kv(K_full, self.groups), repeat_kv(V_full, self.groups), is_causal=False)
            else:
                out = self._topk_attention(q, K_full, V_full, kv_len)
            present = (K_full, V_full, kv_len) if use_cache else None
        else:
            # prefill: the prompt attends to itself causally
            out = F.scaled_dot_product_attention(q, repeat_kv(k, self.groups), repeat_kv(v, self.groups), is_causal=True)
            present = (k, v, q_len) if use_cache else None

        out = out.transpose(1, 2).contiguous().reshape(bsz, q_len, -1)
        return self.o_proj(out), present

    @staticmethod
    def _rotate(x):
        x1, x2 = x.chunk(2, dim=-1)
        return torch.cat((-x2, x1), dim=-1)

    def _topk_attention(self, q, K_full, V_full, kv_len):
        local_start = kv_len - self.n_local
        middle_K = K_full[:, :, self.n_sink : local_start]
        q_grouped = q.view(q.shape[0], self.num_kv_heads, self.groups, 1, self.head_dim).mean(2)  # (b, kv_heads, 1, d)
        scores = (q_grouped @ middle_K.transpose(-2, -1)).squeeze(2).mean(1)  # (b, middle_len)
        idx = scores.topk(min(self.top_k, scores.shape[-1]), dim=-1).indices.sort(dim=-1).values + self.n_sink
        keep = torch.cat([torch.arange(self.n_sink, device=q.device).expand(idx.shape[0], -1), idx,
                          torch.arange(local_start, kv_len, device=q.device).expand(idx.shape[0], -1)], dim=-1)
        gather = keep[:, None, :, None].expand(-1, K_full.shape[1], -1, self.head_dim)
        K_sel, V_sel = K_full.gather(2, gather), V_full.gather(2, gather)
        return F.scaled_dot_product_attention(q, repeat_kv(K_sel, self.groups), repeat_kv(V_sel, self.groups), is_causal=False)
