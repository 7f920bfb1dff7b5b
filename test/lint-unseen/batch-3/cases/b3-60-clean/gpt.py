# case: b3-60-clean
# modelled-on: adeelmahmood/nanogpt-to-chat https://github.com/adeelmahmood/nanogpt-to-chat/commit/aa6e21af04c36e207f0e4b8dcfefb842a1a28b87
# label: correct
# class: clean
# pattern: a chat GPT with MHA / GQA / MQA heads, rotary positions offset by the cached length, and a per-layer KV cache the attention appends to; SDPA gets the concatenated keys and values with is_causal=(T > 1) and enable_gqa; the inference engine (engine.py) creates a fresh cache for every request, prefills the whole prompt in one call and then decodes one token per call
# why: the only multi-token call is the prefill, and it always runs on an empty cache, so the queries and keys have the same length and SDPA's top-left causal mask is the right one; every later call has T == 1, where is_causal is False and the single query sees all cached keys; there is no chunked prefill and no cache reuse across requests
# looks-like: ATT008
# source: https://github.com/adeelmahmood/nanogpt-to-chat https://github.com/adeelmahmood/nanogpt-to-chat/commit/aa6e21af04c36e207f0e4b8dcfefb842a1a28b87 gpt.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache:
    def __init__(self, n_layers):
        self.k = [None] * n_layers
        self.v = [None] * n_layers

    def seq_len(self):
        return next((k.size(-2) for k in self.k if k is not None), 0)

    def get(self, layer_idx):
        return self.k[layer_idx], self.v[layer_idx]

    def append(self, layer_idx, k, v):
        if self.k[layer_idx] is None:
            self.k[layer_idx], self.v[layer_idx] = k, v
        else:
            self.k[layer_idx] = torch.cat([self.k[layer_idx], k], dim=-2)
            self.v[layer_idx] = torch.cat([self.v[layer_idx], v], dim=-2)


def rope_apply(x, cos, sin, offset=0):
    t = x.size(-2)
    cos, sin = cos[offset:offset + t], sin[offset:offset + t]
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class CausalSelfAttention(nn.Module):
    def __init__(self, n_emb, n_head, n_kv_head):
        super().__init__()
        self.n_head, self.n_kv_head, self.head_dim = n_head, n_kv_head, n_emb // n_head
        self.c_q = nn.Linear(n_emb, n_head * self.head_dim, bias=False)
        self.c_k = nn.Linear(n_emb, n_kv_head * self.head_dim, bias=False)
        self.c_v = nn.Linear(n_emb, n_kv_head * self.head_dim, bias=False)
        self.c_proj = nn.Linear(n_emb, n_emb)

    def forward(self, x, cos_sin, kv_cache=None, layer_idx=0):
        B, T, C = x.shape
        k_past, v_past = kv_cache.get(layer_idx) if kv_cache is not None else (None, None)
        past_len = k_past.size(-2) if k_past is not None else 0

        q = self.c_q(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = self.c_k(x).view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        v = self.c_v(x).view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        cos, sin = cos_sin
        q, k = rope_apply(q, cos, sin, offset=past_len), rope_apply(k, cos, sin, offset=past_len)

        k_full, v_full = k, v
        if kv_cache is not None:
            kv_cache.append(layer_idx, k, v)
            if k_past is not None:
                k_full = torch.cat([k_past, k], dim=-2)
                v_full = torch.cat([v_past, v], dim=-2)

        y = F.scaled_dot_product_attention(
            q,
            k_full,
            v_full,
            is_causal=(T > 1),
            enable_gqa=(self.n_kv_head < self.n_head),
        )
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))
