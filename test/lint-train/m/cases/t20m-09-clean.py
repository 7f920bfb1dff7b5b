# case: t20m-09-clean
# modelled-on: DingWeiPeng/First https://github.com/DingWeiPeng/First/commit/7379f01dcae3c882c7a4fa782493bc52dc48283a
# label: correct
# class: clean
# pattern: an Annotated-Transformer-style decoder-only model with a preallocated KV cache: with the cache on, each call projects only the last position, writes its key and value into key_cache[:, :, cur:cur + 1] and attends over key_cache[:, :, :cur + 1]; the causal keep mask is subsequent_mask(n) = (triu(ones(1, n, n), diagonal=1) == 0) for the whole prefix, and the attention helper, seeing a single query, slices its last row, mask[:, :, S - 1:S, :S], before masked_fill(mask == 0, -1e9); the generation loop feeds the growing prefix each step
# why: correct: a keep mask filled where it is 0 hides the future; for the one new query the last row of the square mask is its own row (bottom-right aligned with the cached keys) and is all ones, so the new token sees every cached key and itself, which is the same result as running the full prefix without the cache (the repository checks both paths give identical tokens); scale 1/sqrt(d_k)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/DingWeiPeng/First https://github.com/DingWeiPeng/First/commit/7379f01dcae3c882c7a4fa782493bc52dc48283a attention.py
import math

import torch
import torch.nn as nn


def subsequent_mask(size):
    attn_shape = (1, size, size)
    return torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8) == 0


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.shape[-1]
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None and mask.shape[-1] == mask.shape[-2]:
        if scores.shape[2] == 1:
            # one query (the newest token): take its row of the square mask
            mask = mask[:, :, scores.shape[-1] - 1 : scores.shape[-1], : scores.shape[-1]]
        scores = scores.masked_fill(mask == 0, -1e9)
    p = scores.softmax(dim=-1)
    if dropout is not None:
        p = dropout(p)
    return torch.matmul(p, value), p


class CachedMultiHeadedAttention(nn.Module):
    def __init__(self, batch_size, max_seq_len, h, d_model, use_kv_cache=True):
        super().__init__()
        self.d_k = d_model // h
        self.h = h
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])
        self.register_buffer("key_cache", torch.zeros(batch_size, h, max_seq_len, self.d_k))
        self.register_buffer("value_cache", torch.zeros(batch_size, h, max_seq_len, self.d_k))
        self.current_seq_len = 0
        self.max_seq_len = max_seq_len
        self.use_kv_cache = use_kv_cache

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)
        nbatches = query.size(0)
        if self.use_kv_cache:
            query, key, value = query[:, -1:, :], key[:, -1:, :], value[:, -1:, :]
        query, key, value = [lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2) for lin, x in zip(self.linears, (query, key, value))]
        if self.use_kv_cache:
            n = key.size(2)
            self.key_cache[:, :, self.current_seq_len : self.current_seq_len + n, :] = key
            self.value_cache[:, :, self.current_seq_len : self.current_seq_len + n, :] = value
            self.current_seq_len += n
            assert self.current_seq_len <= self.max_seq_len
            key = self.key_cache[:, :, : self.current_seq_len, :]
            value = self.value_cache[:, :, : self.current_seq_len, :]
        x, _ = attention(query, key, value, mask=mask)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](x)


@torch.no_grad()
def greedy(model, generator, tokens=64):
    out = torch.zeros(1, 1, dtype=torch.long)
    for index in range(1, tokens):
        src = torch.arange(1, index + 1).unsqueeze(0)
        tgt_mask = subsequent_mask(index).type_as(src.data)
        hidden = model(src, tgt_mask)
        next_word = torch.argmax(generator(hidden[:, -1]), dim=1)
        out = torch.cat([out, next_word.view(1, 1)], dim=1)
    return out
