# case: b55-07-clean
# modelled-on: sup-zzj/speculative-decoding-lab https://github.com/sup-zzj/speculative-decoding-lab/commit/ab73a8336fce6e99f49a543d3322ff343081864d
# label: correct
# class: clean
# pattern: the decoder layer that runs Qwen2.5 weights through a paged KV cache in a small speculative-decoding engine: a one-token decode step that writes the new token's key and value at its cache position first and then attends every position up to and including it with no mask, a chunk step that writes the chunk's keys and values after the prefix and calls the engine's masked extend kernel with each sequence's start position, and a prefill that runs the causal chunk kernel on an empty cache; rotary positions are offset by the cache length or start position
# why: correct: after the write the single query's own key is stored, so attending positions 0 .. ctx (ctx + 1 keys) without a mask is exactly causal for one query; multi-token chunks after a prefix go through the kernel that builds the bottom-right mask from the start position, and only the prefill, whose keys are its own queries, uses the top-left causal kernel; the rotary offsets follow the same positions, so queries and keys agree
# looks-like: ATT008
# source: https://github.com/sup-zzj/speculative-decoding-lab https://github.com/sup-zzj/speculative-decoding-lab/commit/ab73a8336fce6e99f49a543d3322ff343081864d engine/qwen.py
import torch
from torch import nn

from .attention import extend_attention, prefill_attention, stored_decode_attention
from .layers import RMSNorm, rope, rotary_table


class PagedQwenLayer(nn.Module):
    def __init__(self, hidden, q_heads, kv_heads, head_dim, inter, theta, max_len, eps, device, bias=True):
        super().__init__()
        self.q_heads, self.kv_heads, self.head_dim = q_heads, kv_heads, head_dim
        self.q_proj = nn.Linear(hidden, q_heads * head_dim, bias=bias)
        self.k_proj = nn.Linear(hidden, kv_heads * head_dim, bias=bias)
        self.v_proj = nn.Linear(hidden, kv_heads * head_dim, bias=bias)
        self.o_proj = nn.Linear(q_heads * head_dim, hidden, bias=False)
        self.ln_in = RMSNorm(hidden, eps)
        self.ln_post = RMSNorm(hidden, eps)
        self.gate = nn.Linear(hidden, inter, bias=False)
        self.up = nn.Linear(hidden, inter, bias=False)
        self.down = nn.Linear(inter, hidden, bias=False)
        self.register_buffer("cos_sin", rotary_table(head_dim, theta, max_len, device), persistent=False)

    def mlp(self, x):
        return self.down(nn.functional.silu(self.gate(x)) * self.up(x))

    def _qkv(self, x, shape):
        q = self.q_proj(x).view(*shape, self.q_heads, self.head_dim)
        k = self.k_proj(x).view(*shape, self.kv_heads, self.head_dim)
        v = self.v_proj(x).view(*shape, self.kv_heads, self.head_dim)
        return q, k, v

    def decode_one(self, h, cache, layer, sids, ctx_lens, cos, sin):
        """h: (B, hidden), one new token per sequence at position ctx_lens[b]."""
        b = h.shape[0]
        q, k, v = self._qkv(self.ln_in(h), (b,))
        q, k = rope(q, sin, cos), rope(k, sin, cos)
        for row in range(b):
            cache.write(layer, sids[row], int(ctx_lens[row]), k[row], v[row])
        # the token's own key is stored now, so it sees positions 0 .. ctx_lens[b]
        out = stored_decode_attention(q, cache, layer, sids, [int(n) + 1 for n in ctx_lens], self.q_heads)
        h = h + self.o_proj(out.reshape(b, -1))
        return h + self.mlp(self.ln_post(h))

    def extend(self, h, cache, layer, sids, starts, cos, sin):
        """h: (B, chunk, hidden) placed after starts[b] stored positions."""
        b, chunk, _ = h.shape
        q, k, v = self._qkv(self.ln_in(h), (b, chunk))
        q = rope(q, sin[:, :, None, :], cos[:, :, None, :])
        k = rope(k, sin[:, :, None, :], cos[:, :, None, :])
        for row in range(b):
            for j in range(chunk):
                cache.write(layer, sids[row], int(starts[row]) + j, k[row, j], v[row, j])
        out = extend_attention(q, cache, layer, sids, starts, self.q_heads)
        h = h + self.o_proj(out.reshape(b, chunk, -1))
        return h + self.mlp(self.ln_post(h))

    def prefill(self, h, cache, layer, sids, lengths, cos, sin):
        b, chunk, _ = h.shape
        q, k, v = self._qkv(self.ln_in(h), (b, chunk))
        q = rope(q, sin[None, :, None, :], cos[None, :, None, :])
        k = rope(k, sin[None, :, None, :], cos[None, :, None, :])
        out = prefill_attention(q, k, v, self.q_heads, lengths)
        for row in range(b):
            for t in range(int(lengths[row])):
                cache.write(layer, sids[row], t, k[row, t], v[row, t])
        h = h + self.o_proj(out.reshape(b, chunk, -1))
        return h + self.mlp(self.ln_post(h))


def chunk_positions(starts, chunk, device):
    """Absolute positions of a chunk of new rows: start + 0 .. start + chunk - 1 per sequence."""
    base = torch.arange(chunk, dtype=torch.long, device=device)[None, :]
    return base + torch.tensor(starts, dtype=torch.long, device=device)[:, None]
