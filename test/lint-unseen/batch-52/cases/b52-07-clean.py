# case: b52-07-clean
# modelled-on: PriorLabs/TabPFN https://github.com/PriorLabs/TabPFN/commit/930ea728b40f7f321d965250838bca8507bd70b9
# label: correct
# class: clean
# pattern: cross-attention and in-context attention of a tabular foundation model with a learned "scalable softmax": before the attention call the queries are multiplied by a per-head, per-channel factor computed by a small MLP from log(n), n the number of keys, times (1 + tanh(g(q))) for a query-dependent modulation (initialised at zero); the product then goes through scaled_dot_product_attention with its default scale; log(n) is taken in float32 and cast back so it cannot overflow in half precision; the in-context attention builds keys and values from the training rows only
# why: correct: the temperature of the softmax is meant to grow with the number of keys (log-n scaling, so attention does not flatten as the context grows); it is a learned factor applied on top of, not instead of, SDPA's default 1/sqrt(head_dim), which is still the head width here; the factor multiplies the queries, which scales each row of logits, and leaves the key axis the softmax normalises unchanged; no mask is needed because test rows only ever see keys built from training rows
# looks-like: ATT003, ATT004, ATT008
# source: https://github.com/PriorLabs/TabPFN https://github.com/PriorLabs/TabPFN/commit/930ea728b40f7f321d965250838bca8507bd70b9 src/tabpfn/architectures/tabpfn_v3.py
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


def log_length(n: int, device, dtype) -> torch.Tensor:
    """log(max(n, 1)) computed in float32: n can exceed the float16 range."""
    one = torch.ones((), dtype=torch.float32, device=device)
    return (one * n).clamp(min=1).log().to(dtype)


class LengthAwareQueryScale(nn.Module):
    """q * base(log n) * (1 + tanh(mod(q))), per head and channel."""

    def __init__(self, heads: int, head_dim: int, hidden: int = 64):
        super().__init__()
        self.heads = heads
        self.head_dim = head_dim
        self.base = nn.Sequential(nn.Linear(1, hidden), nn.GELU(), nn.Linear(hidden, heads * head_dim))
        self.mod = nn.Sequential(nn.Linear(head_dim, hidden), nn.GELU(), nn.Linear(hidden, head_dim))
        nn.init.zeros_(self.mod[-1].weight)
        nn.init.zeros_(self.mod[-1].bias)

    def forward(self, q: torch.Tensor, n_keys: int) -> torch.Tensor:  # q: (B, S, H, D)
        logn = log_length(n_keys, q.device, q.dtype).reshape(1, 1)
        base = self.base(logn).view(1, 1, self.heads, self.head_dim)
        return q * base * (1 + torch.tanh(self.mod(q)))


def attend(q, k, v, scaler: Optional[LengthAwareQueryScale] = None) -> torch.Tensor:
    """(B, S, H, D) in and out; keys may come from a different, longer set."""
    if scaler is not None:
        q = scaler(q, k.shape[1])
    out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
    return out.transpose(1, 2)


class TrainContextAttention(nn.Module):
    """Every row (train or test) attends to keys/values built from the training rows."""

    def __init__(self, emb: int, heads: int, head_dim: int, scaled: bool = True):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.q = nn.Linear(emb, heads * head_dim, bias=False)
        self.kv = nn.Linear(emb, 2 * heads * head_dim, bias=False)
        self.o = nn.Linear(heads * head_dim, emb, bias=False)
        self.scaler = LengthAwareQueryScale(heads, head_dim) if scaled else None
        nn.init.zeros_(self.o.weight)

    def forward(self, rows: torch.Tensor, n_train: int) -> torch.Tensor:
        b, r, _ = rows.shape
        q = self.q(rows).view(b, r, self.heads, self.head_dim)
        k, v = self.kv(rows[:, :n_train]).view(b, n_train, 2, self.heads, self.head_dim).unbind(2)
        out = attend(q, k, v, self.scaler)
        return self.o(out.reshape(b, r, self.heads * self.head_dim))


class QueryToSetAttention(nn.Module):
    def __init__(self, emb: int, heads: int, head_dim: int):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.q = nn.Linear(emb, heads * head_dim, bias=False)
        self.k = nn.Linear(emb, heads * head_dim, bias=False)
        self.v = nn.Linear(emb, heads * head_dim, bias=False)
        self.o = nn.Linear(heads * head_dim, emb, bias=False)
        self.scaler = LengthAwareQueryScale(heads, head_dim)

    def forward(self, queries: torch.Tensor, items: torch.Tensor) -> torch.Tensor:
        b, nq, _ = queries.shape
        n = items.shape[1]
        q = self.q(queries).view(b, nq, self.heads, self.head_dim)
        k = self.k(items).view(b, n, self.heads, self.head_dim)
        v = self.v(items).view(b, n, self.heads, self.head_dim)
        return self.o(attend(q, k, v, self.scaler).reshape(b, nq, -1))
