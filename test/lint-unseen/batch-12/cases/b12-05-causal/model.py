# case: b12-05-causal
# modelled-on: Akashsinghbhadoriya/nanoGPT-learning https://github.com/Akashsinghbhadoriya/nanoGPT-learning/commit/de4433591edf2ebef8acf94081e7ee73a22d95d8
# label: buggy
# class: real-bug
# pattern: the same study repository's config-driven GPT (a dataclass loaded from YAML in another module switches the KV cache and grouped-query attention on): the cache module concatenates keys and values on the time axis (dim 2, after the head transpose), the kv heads are repeated to the query heads, and SDPA is called with is_causal=True whatever the cache holds; generate() prefills the prompt on its first step and then feeds idx[:, -1:] alone; a benchmark module turns the cache on
# why: buggy: SDPA's is_causal mask is aligned to the top left (PyTorch's documentation), so once the cache holds the prefix, the one new query against S cached keys may attend key 0 only, and every generated token sees only the first prompt token; the benchmark of cached generation is the code's own use of that path; no fix was found (the repository's KV benchmark results were produced with it)
# source: https://github.com/Akashsinghbhadoriya/nanoGPT-learning https://github.com/Akashsinghbhadoriya/nanoGPT-learning/commit/de4433591edf2ebef8acf94081e7ee73a22d95d8 llm/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from config import ModelConfig


class KVCache(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache_k = None
        self.cache_v = None

    def reset_cache(self):
        self.cache_k = self.cache_v = None

    def forward(self, k, v):
        if self.cache_k is None:
            self.cache_k, self.cache_v = k, v
        else:
            self.cache_k = torch.cat([self.cache_k, k], dim=2)
            self.cache_v = torch.cat([self.cache_v, v], dim=2)
        return self.cache_k, self.cache_v


def repeat_kv(x, n_rep: int):
    B, n_kv, T, d = x.shape
    return x[:, :, None, :, :].expand(B, n_kv, n_rep, T, d).reshape(B, n_kv * n_rep, T, d)


class SelfAttention(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.n_head, self.n_kv_head = config.n_head, config.n_kv_head
        self.head_dim = config.n_embd // config.n_head
        self.q_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.kv_proj = nn.Linear(config.n_embd, 2 * self.head_dim * config.n_kv_head, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.kv_cache = KVCache() if config.use_kvcache else None

    def forward(self, x):
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k, v = self.kv_proj(x).split(self.head_dim * self.n_kv_head, dim=2)
        k = k.view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        if self.kv_cache is not None:
            k, v = self.kv_cache(k, v)
        k = repeat_kv(k, self.n_head // self.n_kv_head)
        v = repeat_kv(v, self.n_head // self.n_kv_head)
        p = self.config.dropout if self.training else 0
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=p, is_causal=True)  # expect: ATT008
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class GPT(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.attn = nn.ModuleList([SelfAttention(config) for _ in range(config.n_layer)])
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def reset_kv_cache(self):
        for layer in self.attn:
            layer.kv_cache.reset_cache()

    def forward(self, idx):
        x = self.wte(idx)
        for layer in self.attn:
            x = x + layer(x)
        return self.lm_head(x)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0):
        for i in range(max_new_tokens):
            if i == 0 and self.config.use_kvcache:
                self.reset_kv_cache()
                idx_cond = idx[:, -self.config.block_size:]
            elif self.config.use_kvcache:
                idx_cond = idx[:, -1:]
            else:
                idx_cond = idx[:, -self.config.block_size:]
            logits = self(idx_cond)[:, -1, :] / temperature
            idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx
