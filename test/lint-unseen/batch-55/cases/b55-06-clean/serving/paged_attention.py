# case: b55-06-clean
# modelled-on: sup-zzj/speculative-decoding-lab https://github.com/sup-zzj/speculative-decoding-lab/commit/ab73a8336fce6e99f49a543d3322ff343081864d
# label: correct
# class: clean
# pattern: gather-based paged attention of a small speculative-decoding engine (a folder: the kernels, one that attends a single new query per sequence over its whole gathered prefix with no mask, one that prefills a prompt chunk on an empty cache with SDPA is_causal=True, and one that attends a chunk of new rows after a stored prefix with a boolean mask whose row j keeps keys 0 .. start + j; and the speculative round, which verifies the pending token plus gamma draft proposals through that extend path, passing each sequence's cache length as its start position, then truncates the cache to the committed length)
# why: correct: the decode step has one query whose key is already stored, so every stored key is visible and no mask is needed; is_causal=True is used only where the queries and keys are the same fresh chunk (no prefix), so its top-left alignment is right; the multi-row verification uses an explicit bottom-right mask (True = may attend, SDPA's boolean convention), keeping the whole prefix and the chunk rows up to each row; SDPA scales by the head width
# looks-like: ATT002, ATT008
# source: https://github.com/sup-zzj/speculative-decoding-lab https://github.com/sup-zzj/speculative-decoding-lab/commit/ab73a8336fce6e99f49a543d3322ff343081864d engine/attention.py
from typing import List, Sequence

import torch
import torch.nn.functional as F


def widen_kv(t: torch.Tensor, q_heads: int) -> torch.Tensor:
    """Grouped-query attention: repeat each kv head for the query heads that share it."""
    group = q_heads // t.shape[-2]
    return t if group == 1 else t.repeat_interleave(group, dim=-2)


def stored_prefix(cache, layer: int, sid: int, n: int):
    """Keys and values of the first n logical positions of one sequence, each (n, kv_heads, d)."""
    if n <= 0:
        empty = torch.zeros((0, cache.num_kv_heads, cache.head_dim), dtype=cache.dtype, device=cache.device)
        return empty, empty
    keys, values = [], []
    for i, block in enumerate(cache.block_tables[sid][: (n + cache.block_size - 1) // cache.block_size]):
        take = min(cache.block_size, n - i * cache.block_size)
        keys.append(cache.keys(layer, block)[:take])
        values.append(cache.values(layer, block)[:take])
    return torch.cat(keys), torch.cat(values)


def decode_step(q: torch.Tensor, cache, layer: int, sids: Sequence[int], lengths: Sequence[int], q_heads: int) -> torch.Tensor:
    """q: (B, q_heads, d), one token per row; it sees every stored position of its sequence."""
    out: List[torch.Tensor] = []
    for row, sid in enumerate(sids):
        k, v = stored_prefix(cache, layer, sid, int(lengths[row]))
        k, v = widen_kv(k, q_heads), widen_kv(v, q_heads)
        o = F.scaled_dot_product_attention(q[row][None, :, None, :], k.transpose(0, 1)[None], v.transpose(0, 1)[None])
        out.append(o[0, :, 0])
    return torch.stack(out)


def prefill_chunk(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, q_heads: int, lengths: Sequence[int]) -> torch.Tensor:
    """A fresh prompt per row, nothing stored before it; rows are right-padded to the chunk length."""
    out: List[torch.Tensor] = []
    width = q.shape[1]
    for row, n in enumerate(lengths):
        n = int(n)
        qi = q[row, :n].transpose(0, 1)[None]
        ki = widen_kv(k[row, :n], q_heads).transpose(0, 1)[None]
        vi = widen_kv(v[row, :n], q_heads).transpose(0, 1)[None]
        o = F.scaled_dot_product_attention(qi, ki, vi, is_causal=True)[0].transpose(0, 1)
        if n < width:
            o = torch.cat([o, o.new_zeros(width - n, *o.shape[1:])])
        out.append(o)
    return torch.stack(out)


def extend_chunk(q: torch.Tensor, cache, layer: int, sids: Sequence[int], starts: Sequence[int], q_heads: int) -> torch.Tensor:
    """q: (B, chunk, q_heads, d); the chunk's own keys are already stored after `start` older positions."""
    b, chunk = q.shape[:2]
    out: List[torch.Tensor] = []
    for row in range(b):
        start = int(starts[row])
        k, v = stored_prefix(cache, layer, sids[row], start + chunk)
        visible = torch.zeros((chunk, start + chunk), dtype=torch.bool, device=q.device)
        for j in range(chunk):
            visible[j, : start + j + 1] = True
        o = F.scaled_dot_product_attention(
            q[row].transpose(0, 1)[None],
            widen_kv(k, q_heads).transpose(0, 1)[None],
            widen_kv(v, q_heads).transpose(0, 1)[None],
            attn_mask=visible[None],
        )
        out.append(o[0].transpose(0, 1))
    return torch.stack(out)
