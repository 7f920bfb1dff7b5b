# case: b14-11-clean
# modelled-on: Bornlex/GPT2 https://github.com/Bornlex/GPT2/commit/b15ed93a56394ddd85a2b918108c299ee78e58f8
# label: correct
# class: clean
# pattern: a GPT-2 reimplementation with multi-query attention and a hand-rolled KV cache: one Linear yields full-width queries and a single head_dim-wide key and value, the cache dict concatenates keys and values along the time axis, keys and values are unsqueezed to (b, n, 1, d) so that they broadcast over the query heads, the scores are queries.transpose(1, 2) @ keys.transpose(1, 2).transpose(-1, -2) / d2 ** 0.5, and a triu(ones_like(scores), diagonal=1) boolean mask is filled with -inf only when the call carries more than one token; the model (another module) prefills the prompt with a fresh cache and then feeds one token per step
# why: correct: transpose(1, 2) then transpose(-1, -2) turns the (b, n, 1, d) keys into (b, 1, d, n), which broadcasts over the heads, and d2 is the per-head width of the queries; the triu mask is True strictly above the diagonal, so masked_fill blocks the future; a multi-token call only happens on the prompt with an empty cache, where scores are square and the top-left triangle is the causal one, and a one-token step against the cache needs no mask at all; what a naive linter could misread: ATT008 (a KV cache whose mask is switched off by a length test), ATT005 (two chained transposes of the keys), ATT004 (a scale from the queries' shape), ATT002 / ATT007 (masked_fill of a triu with -inf)
# looks-like: ATT002, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/Bornlex/GPT2 https://github.com/Bornlex/GPT2/commit/b15ed93a56394ddd85a2b918108c299ee78e58f8 src/attention.py
import torch
from torch import nn


class MultiQueryAttention(nn.Module):
    def __init__(self, embedding_size: int, n_heads: int, dropout: float = 0.2):
        assert embedding_size % n_heads == 0
        super().__init__()
        self.embedding_size = embedding_size
        self.n_heads = n_heads
        self.head_dim = embedding_size // n_heads
        self.qkv = nn.Linear(embedding_size, embedding_size + 2 * self.head_dim)
        self.fc = nn.Linear(embedding_size, embedding_size)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", None, persistent=False)

    def forward(self, x, kv_cache: dict | None = None):
        queries, keys, values = torch.split(self.qkv(x), [self.embedding_size, self.head_dim, self.head_dim], -1)
        if kv_cache is not None:
            if kv_cache.get("k") is not None:
                keys = torch.cat((kv_cache["k"], keys), dim=1)
                values = torch.cat((kv_cache["v"], values), dim=1)
            kv_cache["k"] = keys
            kv_cache["v"] = values
        queries = queries.view(queries.shape[0], queries.shape[1], self.n_heads, self.head_dim)
        keys = keys.unsqueeze(2)  # (b, n_kv, 1, d): one head shared by all query heads
        values = values.unsqueeze(2)
        use_causal_mask = x.shape[1] > 1
        out = self.scaled_dot_product(keys, queries, values, use_causal_mask=use_causal_mask)
        out = out.reshape(queries.shape[0], queries.shape[1], self.embedding_size)
        return self.dropout(self.fc(out)), kv_cache

    def scaled_dot_product(self, keys, queries, values, use_causal_mask: bool = True):
        b, n, h, d2 = queries.shape
        x = torch.matmul(queries.transpose(1, 2), keys.transpose(1, 2).transpose(-1, -2)) / (d2**0.5)
        if use_causal_mask:
            if self.mask is None or self.mask.shape[-1] != x.shape[-1]:
                self.mask = self.create_causal_mask(x)
            x = torch.masked_fill(x, mask=self.mask, value=-torch.inf)
        x = torch.softmax(x, -1)
        x = torch.matmul(x, values.transpose(1, 2))
        return x.transpose(1, 2).contiguous()

    def create_causal_mask(self, x: torch.Tensor):
        return torch.triu(torch.ones_like(x, dtype=torch.bool), diagonal=1)
