# case: t44ff-04-clean
# modelled-on: maokner/moe-inference-engine https://github.com/maokner/moe-inference-engine/commit/3392727564a7df392551aa89b275dfeed4c4daaf
# label: correct
# class: clean
# pattern: a mixture-of-experts decoder served with an external KV cache (contiguous or paged, another module): each layer writes the new keys at the cache position and reads back everything up to `position + seq_len`, then calls SDPA with `is_causal=seq_len > 1` after `assert position == 0 or seq_len == 1`; the model (a third module) generates with a fresh cache, the whole prompt first, then one token per step; the router softmaxes its top-k logits over the last axis
# why: correct: the assert allows several queries only at position 0, where the keys read back are exactly the prompt's own (as many keys as queries), so SDPA's top-left causal mask is the right one; a decode step has one query and needs no mask over the cached keys; the router's top-k softmax over -1 normalises each token's k chosen experts
# looks-like: ATT001, ATT008
# source: https://github.com/maokner/moe-inference-engine https://github.com/maokner/moe-inference-engine/commit/3392727564a7df392551aa89b275dfeed4c4daaf src/moe_engine/model.py
import torch
import torch.nn as nn
from torch.nn import functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.in_w = nn.Parameter(torch.empty(3 * dim, dim))
        self.in_b = nn.Parameter(torch.zeros(3 * dim))
        self.out = nn.Linear(dim, dim)
        nn.init.xavier_uniform_(self.in_w)

    def forward(self, x, cache, layer, position):
        b, n, dim = x.shape
        q, k, v = F.linear(x, self.in_w, self.in_b).chunk(3, dim=-1)
        q, k, v = (t.view(b, n, self.heads, self.hd).transpose(1, 2) for t in (q, k, v))
        cache.put(layer, position, k, v)
        keys, vals = cache.take(layer, position + n)
        # several queries only for the prompt on an empty cache; a decode step is one query
        assert position == 0 or n == 1, "prefill must start at position 0"
        y = F.scaled_dot_product_attention(q, keys, vals, is_causal=n > 1)
        return self.out(y.transpose(1, 2).reshape(b, n, dim))


class TopKRouter(nn.Module):
    def __init__(self, dim, hidden, n_experts, k):
        super().__init__()
        self.k = k
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim)) for _ in range(n_experts)
        )

    def forward(self, x):
        b, n, dim = x.shape
        flat = x.reshape(-1, dim)
        logits = F.linear(flat.float(), self.gate.weight.float())
        top_vals, top_idx = torch.topk(logits, k=self.k, dim=-1)
        weights = F.softmax(top_vals, dim=-1)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            rows, slot = torch.where(top_idx == e)
            if rows.numel():
                out.index_add_(0, rows, weights[rows, slot].unsqueeze(-1).to(flat.dtype) * expert(flat[rows]))
        return out.reshape(b, n, dim)
