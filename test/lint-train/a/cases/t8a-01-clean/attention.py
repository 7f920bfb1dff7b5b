# case: t8a-01-clean
# modelled-on: SoloCalm/MiniLLM https://github.com/SoloCalm/MiniLLM/commit/5a566f89c7d900500223dfac554c5667d41fbfee
# label: correct
# class: clean
# pattern: a GQA decoder with a KV cache object whose update(layer_idx, k, v) returns the full keys and values; the attention applies a (T, T) triu causal fill only when more than one query arrives, and the model's generate (another module) prefills the prompt into an empty cache and then feeds one token per step
# why: correct: the square causal fill runs only when seq_len > 1, which in this model happens for training and for the prefill into an empty cache, where T_q == T_k; a single decoding query may attend to every cached key; the GQA heads are expanded on the sequence-major layout before the transpose
# looks-like: ATT002, ATT008
# source: https://github.com/SoloCalm/MiniLLM https://github.com/SoloCalm/MiniLLM/commit/5a566f89c7d900500223dfac554c5667d41fbfee model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerCache:
    """Keys/values already computed, per layer, laid out (batch, seq, kv_heads, head_dim)."""

    def __init__(self):
        self.keys, self.values = [], []

    def update(self, layer: int, k: torch.Tensor, v: torch.Tensor):
        if layer >= len(self.keys):
            self.keys.append(k)
            self.values.append(v)
        else:
            self.keys[layer] = torch.cat((self.keys[layer], k), dim=1)
            self.values[layer] = torch.cat((self.values[layer], v), dim=1)
        return self.keys[layer], self.values[layer]

    def length(self, layer: int = 0) -> int:
        return 0 if layer >= len(self.keys) else self.keys[layer].shape[1]


def rotate(x, cos, sin):
    a, b = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-b, a), dim=-1) * sin


class GroupedAttention(nn.Module):
    def __init__(self, hidden: int, n_heads: int, n_kv_heads: int):
        super().__init__()
        self.n_heads, self.n_kv = n_heads, n_kv_heads
        self.hd = hidden // n_heads
        self.groups = n_heads // n_kv_heads
        self.q = nn.Linear(hidden, n_heads * self.hd, bias=False)
        self.k = nn.Linear(hidden, n_kv_heads * self.hd, bias=False)
        self.v = nn.Linear(hidden, n_kv_heads * self.hd, bias=False)
        self.o = nn.Linear(n_heads * self.hd, hidden, bias=False)

    def forward(self, x, cos, sin, cache: LayerCache = None, layer: int = 0):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.n_heads, self.hd)
        k = self.k(x).view(B, T, self.n_kv, self.hd)
        v = self.v(x).view(B, T, self.n_kv, self.hd)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)

        if cache is not None:
            k, v = cache.update(layer, k, v)
        if self.groups > 1:
            k = k.unsqueeze(3).expand(-1, -1, -1, self.groups, -1).reshape(B, -1, self.n_heads, self.hd)
            v = v.unsqueeze(3).expand(-1, -1, -1, self.groups, -1).reshape(B, -1, self.n_heads, self.hd)

        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (self.hd ** 0.5)
        if T > 1:
            future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
            scores.masked_fill_(future[None, None], float("-inf"))
        out = torch.matmul(F.softmax(scores, dim=-1), v)
        return self.o(out.transpose(1, 2).contiguous().view(B, T, -1))
