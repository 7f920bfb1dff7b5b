# case: b5-01-causal
# modelled-on: objones25/llm-from-scratch https://github.com/objones25/llm-from-scratch/commit/0363d3613880244c905d7b4ceac89d2d3d5c269f
# label: buggy
# class: real-bug
# pattern: a small grouped-query decoder with rotary positions and a KV store class in another module (torch.cat of the old and new keys on the position axis); SDPA's causal flag is tied to the presence of the store (`is_causal=store is None`), and generation runs the whole prompt through the model with an empty store attached before decoding one token per step
# why: the prompt's prefill passes many query tokens with a store attached, so SDPA gets no causal mask at all and every prompt token attends to the prompt tokens after it; the corrupted keys and values are written into the store and every later step reads them (commit 0363d36 makes the flag depend on the query length instead)
# source: https://github.com/objones25/llm-from-scratch https://github.com/objones25/llm-from-scratch/commit/0363d3613880244c905d7b4ceac89d2d3d5c269f src/llmtrain/model/transformer.py
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
        # with a store the stored keys are all in the past, so no causal mask is needed
        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            is_causal=store is None,  # expect: ATT008
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
