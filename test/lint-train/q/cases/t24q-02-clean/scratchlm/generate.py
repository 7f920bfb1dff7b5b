import torch

from scratchlm.kv_cache import CacheConfig, ContiguousKVCache


@torch.no_grad()
def greedy(model, input_ids: torch.Tensor, n_layers: int, heads: int, head_dim: int, max_new: int = 32, max_seq_len: int = 256):
    cache = ContiguousKVCache(CacheConfig(1, max_seq_len, n_layers, heads, head_dim))
    # prefill: the whole prompt at position 0
    logits = model(input_ids, kv_cache=cache, start_positions=torch.zeros(1, dtype=torch.long), use_cache=True)
    pos = input_ids.shape[1]
    out = input_ids
    for _ in range(max_new):
        nxt = logits[:, -1].argmax(dim=-1, keepdim=True)
        out = torch.cat([out, nxt], dim=1)
        # decode: one new token at its absolute position
        logits = model(nxt, kv_cache=cache, start_positions=torch.tensor([pos]), use_cache=True)
        pos += 1
    return out
