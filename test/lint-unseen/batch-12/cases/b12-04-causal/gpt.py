# case: b12-04-causal
# modelled-on: Akashsinghbhadoriya/nanoGPT-learning https://github.com/Akashsinghbhadoriya/nanoGPT-learning/commit/de4433591edf2ebef8acf94081e7ee73a22d95d8
# label: buggy
# class: real-bug
# pattern: a nanoGPT study repository's KV-cache experiment: each attention layer owns a cache module (another file) that concatenates new keys and values along the time axis; with use_cache the layer attends its new queries to all cached keys through SDPA with is_causal=True; generation prefills the prompt and then feeds one new token per step, advancing a position counter
# why: buggy: PyTorch documents SDPA's is_causal mask as aligned to the top left (tril of a (L, S) matrix of ones), so from the second generation step on, the single new query (L = 1) against S cached keys may attend key 0 only: every generated token sees only the first prompt token instead of the whole prefix; the generation loop with use_cache=True is the code's own intended path (the experiment notes next to it benchmark it); no fix was found; causal masking is needed only for a multi-token prefill on an empty cache, where L == S and the flag is right
# source: https://github.com/Akashsinghbhadoriya/nanoGPT-learning https://github.com/Akashsinghbhadoriya/nanoGPT-learning/commit/de4433591edf2ebef8acf94081e7ee73a22d95d8 experimentation/KVCache/model_KVcache.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from cache import KVCache


class CachedSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, dropout: float = 0.0):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.n_embd = n_embd
        self.dropout = dropout
        self.kv_cache = KVCache()

    def reset_cache(self):
        self.kv_cache.reset_cache()

    def forward(self, x, use_cache=False):
        B, T, C = x.size()
        q, k_new, v_new = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head)
        k_new = k_new.view(B, T, self.n_head, C // self.n_head)
        v_new = v_new.view(B, T, self.n_head, C // self.n_head)
        if use_cache:
            k, v = self.kv_cache(k_new, v_new)
        else:
            k, v = k_new, v_new
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=None,
            dropout_p=self.dropout if self.training else 0,
            is_causal=True,  # expect: ATT008
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, block_size: int, n_embd: int = 384, n_head: int = 6, n_layer: int = 4):
        super().__init__()
        self.block_size = block_size
        self.wte = nn.Embedding(vocab, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.layers = nn.ModuleList([CachedSelfAttention(n_embd, n_head) for _ in range(n_layer)])
        self.head = nn.Linear(n_embd, vocab, bias=False)
        self.current_pos = 0

    def reset_kv_cache(self):
        self.current_pos = 0
        for layer in self.layers:
            layer.reset_cache()

    def forward(self, idx, use_cache=False):
        b, t = idx.size()
        if use_cache:
            pos = torch.arange(self.current_pos, self.current_pos + t, device=idx.device)
            self.current_pos += t
        else:
            pos = torch.arange(0, t, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for layer in self.layers:
            x = x + layer(x, use_cache=use_cache)
        return self.head(x)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0):
        self.reset_kv_cache()
        idx_cond = idx[:, -self.block_size:]
        for _ in range(max_new_tokens):
            logits = self(idx_cond, use_cache=True)[:, -1, :] / temperature
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
            idx_cond = idx_next
        return idx
