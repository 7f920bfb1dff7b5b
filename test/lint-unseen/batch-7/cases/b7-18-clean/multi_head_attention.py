# case: b7-18-clean
# modelled-on: Syedafzal059/gpt-from-scratch https://github.com/Syedafzal059/gpt-from-scratch/commit/a378031ba07bca7875944c2ea560632ebc382d9f
# label: correct
# class: clean
# pattern: a teaching GPT with an inference KV cache: the attention module concatenates the cached keys and values, gives every key and query a global position (cached keys 0..T_past-1, new ones from position_offset) and builds the causal mask key_pos <= query_pos, filled with ~mask; the model in another file threads per-layer caches and the generation script prefills the prompt and then feeds one token with position_offset = len - 1
# why: correct: the mask compares absolute positions, so it is bottom-right aligned whatever the number of cached keys (a single new query sees the whole cache and itself), True marks the allowed pairs and ~mask is filled; the scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/Syedafzal059/gpt-from-scratch https://github.com/Syedafzal059/gpt-from-scratch/commit/a378031ba07bca7875944c2ea560632ebc382d9f model/multi_head_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        assert embedding_dim % num_heads == 0
        self.num_head = num_heads
        self.head_dim = embedding_dim // num_heads
        self.query = nn.Linear(embedding_dim, embedding_dim)
        self.key = nn.Linear(embedding_dim, embedding_dim)
        self.value = nn.Linear(embedding_dim, embedding_dim)
        self.out = nn.Linear(embedding_dim, embedding_dim)

    def forward(self, x, past_kv=None, position_offset=0):
        """x: (B, T_new, C); past_kv: None or (K_past, V_past), each (B, heads, T_past, head_dim)."""
        B, T_new, C = x.shape
        Q = self.query(x).view(B, T_new, self.num_head, self.head_dim).transpose(1, 2)
        K = self.key(x).view(B, T_new, self.num_head, self.head_dim).transpose(1, 2)
        V = self.value(x).view(B, T_new, self.num_head, self.head_dim).transpose(1, 2)
        if past_kv is not None:
            K_past, V_past = past_kv
            K = torch.cat([K_past, K], dim=2)
            V = torch.cat([V_past, V], dim=2)
        T_past = 0 if past_kv is None else past_kv[0].shape[2]
        T_total = T_past + T_new

        scores = Q @ K.transpose(-2, -1)
        scores = scores / (self.head_dim**0.5)  # (B, heads, T_new, T_total)

        key_global = torch.empty(T_total, device=x.device, dtype=torch.long)
        if T_past > 0:
            key_global[:T_past] = torch.arange(T_past, device=x.device)
        key_global[T_past:] = position_offset + torch.arange(T_new, device=x.device)
        query_global = position_offset + torch.arange(T_new, device=x.device)
        causal_mask = key_global.unsqueeze(0) <= query_global.unsqueeze(-1)  # (T_new, T_total), True = allowed
        scores = scores.masked_fill(~causal_mask, float("-inf"))

        weights = F.softmax(scores, dim=-1)
        out = (weights @ V).transpose(1, 2).reshape(B, T_new, C)
        return self.out(out), (K, V)
