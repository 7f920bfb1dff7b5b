# case: t22o-11-clean
# modelled-on: Aatman09/gpt2-inference-engine https://github.com/Aatman09/gpt2-inference-engine/commit/bb118d8a386040595b9761b49c8ac0f0bf5f5814
# label: correct
# class: clean
# pattern: a GPT-2 serving demo's attention with a tuple KV cache (torch.cat of past keys and values on the sequence axis) that computes is_causal = (q.shape[2] == k.shape[2]) and calls F.scaled_dot_product_attention(q, k, v, is_causal=is_causal); the engine (engine.py) prefills the whole prompt without a cache and then feeds one sampled token at a time with the returned caches; a tril buffer is registered but unused
# why: correct: with no cache the query and key lengths are equal and is_causal=True is the plain causal mask; with a cache the engine only ever sends a single new token, whose query may see every cached key, so is_causal=False is right (a multi-token chunk on a cache would need a bottom-right mask, but this engine never sends one)
# looks-like: ATT002, ATT008
# source: https://github.com/Aatman09/gpt2-inference-engine https://github.com/Aatman09/gpt2-inference-engine/commit/bb118d8a386040595b9761b49c8ac0f0bf5f5814 model_kv.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.head_size = config.n_embd // config.n_head
        self.register_buffer(
            "bias", torch.tril(torch.ones(config.block_size, config.block_size).view(1, 1, config.block_size, config.block_size))
        )

    def forward(self, x, kv_cache=None):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, self.head_size).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.head_size).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.head_size).transpose(1, 2)

        if kv_cache is not None:
            past_k, past_v = kv_cache
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        new_cache = (k, v)

        is_causal = q.shape[2] == k.shape[2]
        out = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
        out = out.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(out), new_cache


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        self.attns = nn.ModuleList([CausalSelfAttention(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx, kv_caches=None):
        past = 0 if kv_caches is None else kv_caches[0][0].shape[2]
        pos = torch.arange(past, past + idx.shape[1], device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        new_caches = []
        for i, attn in enumerate(self.attns):
            out, cache = attn(x, None if kv_caches is None else kv_caches[i])
            x = x + out
            new_caches.append(cache)
        return self.lm_head(self.ln_f(x)), new_caches
