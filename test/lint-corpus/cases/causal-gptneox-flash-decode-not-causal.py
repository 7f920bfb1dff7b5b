# case: causal-gptneox-flash-decode-not-causal
# modelled-on: EleutherAI/gpt-neox https://github.com/EleutherAI/gpt-neox/pull/1178
# label: correct
# pattern: with a KV cache, the causal flag is turned off when the query is a single cached decoding step, and kept for the full-length forward
# why: a single new query must see all cached keys; only the square (query length == key length) case uses top-left causal masking
# looks-like: ATT008
import torch
import torch.nn as nn
import torch.nn.functional as F


class ParallelSelfAttention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden_states: torch.Tensor, layer_past=None, use_cache: bool = False):
        B, T, C = hidden_states.shape
        qkv = self.query_key_value(hidden_states).view(B, T, self.num_heads, 3 * self.head_dim)
        q, k, v = qkv.split(self.head_dim, dim=-1)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # (B, H, T, hd)
        if layer_past is not None:
            past_k, past_v = layer_past
            k = torch.cat((past_k, k), dim=-2)
            v = torch.cat((past_v, v), dim=-2)
        present = (k, v) if use_cache else None
        q_len, k_len = q.shape[-2], k.shape[-2]
        if 1 < q_len < k_len:
            raise ValueError(f"chunked prefill over a cache ({q_len} queries, {k_len} keys) needs an explicit lower-right mask")
        causal = q_len == k_len  # full forward: square causal; cached decoding: one query sees every key
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        out = out.transpose(1, 2).reshape(B, T, C)
        return self.dense(out), present
