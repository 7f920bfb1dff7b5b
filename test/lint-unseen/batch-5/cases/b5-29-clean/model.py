# case: b5-29-clean
# modelled-on: elvin-mark/llm-from-scratch https://github.com/elvin-mark/llm-from-scratch/commit/eaeeb653a64a4024e117b51910cc136bc364a390
# label: correct
# class: clean
# pattern: a LLaMA-style small model: the attention module (another file) writes its keys and values into a preallocated KVCache at start_pos and reads back [: start_pos + n]; the model builds an additive mask, triu(full(-inf), diagonal=1) of shape (1, 1, n, n), only when n > 1 and adds it to the scores; generation prefills the prompt at start_pos = 0 and then feeds one token per step
# why: correct: the only multi-token call is the prefill, where start_pos is 0 and the n x n mask matches the n x n scores; every decoding step has n = 1, no mask, and one query that may see all cached keys; the softmax runs in float32 over the keys
# looks-like: ATT002, ATT006, ATT008
# source: https://github.com/elvin-mark/llm-from-scratch https://github.com/elvin-mark/llm-from-scratch/commit/eaeeb653a64a4024e117b51910cc136bc364a390 src/tiny_llm/models/dense_llm.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import Attention, KVCache


class DenseLM(nn.Module):
    def __init__(self, vocab=4000, dim=128, n_layers=4, n_heads=4, max_len=256):
        super().__init__()
        self.n_heads = n_heads
        self.dim = dim
        self.max_len = max_len
        self.tok = nn.Embedding(vocab, dim)
        self.norms = nn.ModuleList([nn.RMSNorm(dim) for _ in range(n_layers)])
        self.attn = nn.ModuleList([Attention(dim, n_heads) for _ in range(n_layers)])
        self.out = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens, start_pos=0, kv_caches=None):
        b, n = tokens.shape
        h = self.tok(tokens)
        mask = None
        if n > 1:
            mask = torch.full((1, 1, n, n), float("-inf"), device=tokens.device)
            mask = torch.triu(mask, diagonal=1)
        for i, (norm, attn) in enumerate(zip(self.norms, self.attn)):
            cache = kv_caches[i] if kv_caches is not None else None
            h = h + attn(norm(h), mask, start_pos=start_pos, kv_cache=cache)
        return self.out(h)

    @torch.no_grad()
    def generate(self, prompt, max_tokens):
        b, n = prompt.shape
        caches = [KVCache(b, n + max_tokens + 16, self.n_heads, self.dim // self.n_heads, prompt.device) for _ in self.attn]
        logits = self(prompt, start_pos=0, kv_caches=caches)
        out = prompt
        for step in range(max_tokens):
            nxt = torch.multinomial(F.softmax(logits[:, -1, :], dim=-1), num_samples=1)
            out = torch.cat((out, nxt), dim=1)
            logits = self(nxt, start_pos=n + step, kv_caches=caches)
        return out
