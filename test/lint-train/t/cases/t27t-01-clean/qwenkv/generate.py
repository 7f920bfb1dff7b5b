"""Greedy decoding, with the cache (prefill once, then one token per step) or without it."""
import torch

from qwenkv.kvcache import KVCache
from qwenkv.model import TinyQwen


@torch.no_grad()
def generate_cached(model: TinyQwen, prompt_ids: torch.Tensor, max_new_tokens: int) -> list[int]:
    cfg = model.cfg
    dtype = model.lm_head.weight.dtype  # the model is run in float16 (model.half()) on the GPU
    cache = KVCache(cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, cfg.max_seq_len, dtype=dtype)
    logits = model(prompt_ids, start_pos=0, cache=cache)  # prefill: all prompt tokens at once
    next_id = int(logits[0, -1].argmax())
    out = [next_id]
    for _ in range(max_new_tokens - 1):
        ids = torch.tensor([[next_id]], dtype=torch.long)
        logits = model(ids, start_pos=cache.length, cache=cache)  # one new query over the cache
        next_id = int(logits[0, -1].argmax())
        out.append(next_id)
    return out


@torch.no_grad()
def generate_uncached(model: TinyQwen, prompt_ids: torch.Tensor, max_new_tokens: int) -> list[int]:
    seq = prompt_ids
    out = []
    for _ in range(max_new_tokens):
        logits = model(seq, start_pos=0, cache=None)  # full forward every step
        next_id = int(logits[0, -1].argmax())
        out.append(next_id)
        seq = torch.cat([seq, torch.tensor([[next_id]], dtype=torch.long)], dim=1)
    return out
