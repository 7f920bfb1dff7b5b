# case: b5-02-causal
# modelled-on: objones25/llm-from-scratch https://github.com/objones25/llm-from-scratch/commit/7312dc6b5727a7fb66945524885e21fb7940a485
# label: correct
# class: fixed
# pattern: the same grouped-query decoder after the fix and its follow-up: the causal flag is `n > 1` (many query tokens), the KV store class in another module concatenates old and new keys, a guard raises when many query tokens meet a non-empty store, and generation prefills the prompt into an empty store before decoding one token per step
# why: correct: with an empty store the prompt's prefill is square (n queries, n keys) and SDPA's top-left causal mask is the right one; a one-token decode step needs no mask (every stored key is in its past); the only non-square multi-token case, a chunk against a filled store, raises instead of being masked top-left
# looks-like: ATT008
# source: https://github.com/objones25/llm-from-scratch https://github.com/objones25/llm-from-scratch/commit/7312dc6b5727a7fb66945524885e21fb7940a485 src/llmtrain/model/transformer.py
import torch
from torch import nn
from torch.nn import functional as F

from kv_store import LayerKVStore


def rope_tables(n, head_dim, base, offset, device, dtype):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device=device, dtype=torch.float32) / head_dim))
    pos = torch.arange(offset, offset + n, device=device, dtype=torch.float32)
    ang = torch.outer(pos, inv)
    ang = torch.cat([ang, ang], dim=-1)
    return ang.cos().to(dtype), ang.sin().to(dtype)


def rotate(x, cos, sin):
    a, b = x.chunk(2, dim=-1)
    return x * cos + torch.cat([-b, a], dim=-1) * sin


class GroupedSelfAttention(nn.Module):
    def __init__(self, width, heads, kv_heads, base=10000.0, p_drop=0.0):
        super().__init__()
        self.heads = heads
        self.kv_heads = kv_heads
        self.head_dim = width // heads
        self.base = base
        self.p_drop = p_drop
        self.q = nn.Linear(width, heads * self.head_dim)
        self.kv = nn.Linear(width, 2 * kv_heads * self.head_dim)
        self.o = nn.Linear(width, width)

    def forward(self, x, offset=0, store: LayerKVStore | None = None, layer=0):
        b, n, width = x.shape
        # (b, n, width) -> (b, heads, n, head_dim); keys and values with kv_heads
        q = self.q(x).view(b, n, self.heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(x).split(self.kv_heads * self.head_dim, dim=2)
        k = k.view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        cos, sin = rope_tables(n, self.head_dim, self.base, offset, x.device, x.dtype)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        if store is not None:
            # keys now cover the stored positions and the n new ones
            k, v = store.append(layer, k, v)
        # SDPA's is_causal is aligned top-left: right for square scores (no store, or an empty one),
        # not for a chunk of queries after stored keys; one query needs no mask at all
        if n > 1 and store is not None and k.shape[2] != n:
            raise ValueError("a chunk of several queries after stored keys is not supported")
        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            is_causal=n > 1,
            dropout_p=self.p_drop if self.training else 0.0,
            enable_gqa=True,
        )
        out = out.transpose(1, 2).contiguous().view(b, n, width)
        return self.o(out)


class TinyLM(nn.Module):
    def __init__(self, vocab, width=256, heads=8, kv_heads=2, depth=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.attn = nn.ModuleList([GroupedSelfAttention(width, heads, kv_heads) for _ in range(depth)])
        self.norms = nn.ModuleList([nn.RMSNorm(width) for _ in range(depth)])
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, ids, store: LayerKVStore | None = None):
        x = self.emb(ids)
        offset = store.length if store is not None else 0
        for i, (norm, attn) in enumerate(zip(self.norms, self.attn)):
            x = x + attn(norm(x), offset=offset, store=store, layer=i)
        return self.head(x)

    @torch.no_grad()
    def generate(self, prompt, steps):
        store = LayerKVStore()
        logits = self(prompt, store=store)  # the whole prompt, store attached
        ids = prompt
        for _ in range(steps):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], dim=1)
            logits = self(nxt, store=store)
        return ids
