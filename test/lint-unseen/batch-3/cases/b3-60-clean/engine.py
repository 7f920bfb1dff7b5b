"""Inference engine: one fresh KV cache per request, one prefill call, then one token per call."""
import torch

from gpt import KVCache


class Engine:
    def __init__(self, model, sampler, n_layer, block_size):
        self.model, self.sampler = model, sampler
        self.n_layer, self.block_size = n_layer, block_size

    @torch.inference_mode()
    def generate(self, idx, max_new_tokens, stop_token_id=None):
        assert idx.size(0) == 1, "batch size 1 only"
        idx = idx[:, -self.block_size:]
        cache = KVCache(self.n_layer)  # a new, empty cache for this request
        logits, _ = self.model(idx, kv_cache=cache)  # prefill: the whole prompt in one call
        next_logits = logits[:, -1, :]
        for _ in range(max_new_tokens):
            if cache.seq_len() >= self.block_size:
                break
            idx_next = self.sampler.sample(next_logits)
            if stop_token_id is not None and idx_next.item() == stop_token_id:
                break
            idx = torch.cat([idx, idx_next], dim=1)
            logits, _ = self.model(idx_next, kv_cache=cache)  # decode: one new token
            next_logits = logits[:, -1, :]
        return idx
