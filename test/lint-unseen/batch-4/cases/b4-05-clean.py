# case: b4-05-clean
# modelled-on: venkatacrc/nanogpt-kv-cache https://github.com/venkatacrc/nanogpt-kv-cache/commit/72be7b66721631100c7cf0e872f67888058ce366
# label: correct
# class: clean
# pattern: a GPT-2 causal self-attention with a preallocated KV cache and three back ends: the new keys are written at [past, past + T) and the cache is read back up to past + T; SDPA is called with is_causal only when the query and key lengths are equal (prefill without a past), and the eager fallback slices the registered tril buffer at rows past..past+T so that the causal mask is aligned with the cached keys
# why: correct: with a cache, a one-token decode step has every key in its past (no mask needed) and the eager path's mask rows start at the past length (bottom-right alignment); is_causal=True is passed only when q_len == k_len, where SDPA's top-left alignment is the right one
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/venkatacrc/nanogpt-kv-cache https://github.com/venkatacrc/nanogpt-kv-cache/commit/72be7b66721631100c7cf0e872f67888058ce366 step-5-backends/model.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    use_sdpa = True

    def __init__(self, cfg):
        super().__init__()
        assert cfg.n_embd % cfg.n_head == 0
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd, bias=cfg.bias)
        self.out = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.n_head = cfg.n_head
        self.n_embd = cfg.n_embd
        self.register_buffer(
            "tri",
            torch.tril(torch.ones(cfg.block_size, cfg.block_size)).view(1, 1, cfg.block_size, cfg.block_size),
        )

    def forward(self, x, cache=None, layer=None):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(self.n_embd, dim=2)
        hd = C // self.n_head
        # (B, T, C) -> (B, nh, T, hd)
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)

        if cache is not None:
            past = cache.length
            cache.write(layer, k, v)
            k = cache.keys[layer][:, :, : past + T, :]  # (B, nh, past + T, hd)
            v = cache.values[layer][:, :, : past + T, :]

        # a mask is only needed when every query is also a key (no past): a decode step sees only its past
        causal = (q.size(-2) == k.size(-2)) and q.size(-2) > 1

        if CachedSelfAttention.use_sdpa:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        else:
            if cache is not None:
                keep = self.tri[:, :, past : past + T, : past + T]
            else:
                keep = self.tri[:, :, :T, :T]
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
            att = att.masked_fill(keep == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = att @ v

        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.out(y)
