# case: b13-14-clean
# modelled-on: mehreganmohseni/translation-transformer https://github.com/mehreganmohseni/translation-transformer/commit/dce76678982b1bdb1e78e93cc0fd9e9189e49595
# label: correct
# class: clean
# pattern: a course-style transformer whose multi-head module folds the heads into the batch axis ((B * heads, L, head_dim) via view, transpose and reshape), expands the tokenizer-style attention_mask (1 = real token) to (B * heads, L_k), and whose single-head Attention binds key_padding_mask = attention_mask[:, None, :].to(bool) and fills -inf where ~key_padding_mask, then, for the decoder's self-attention (mask_future=True), fills -inf where triu(ones(q_len, k_len), 1); the scale is math.sqrt(query.size(-1)) and the softmax is an nn.Softmax(dim=-1) built in __init__
# why: correct: despite its name, key_padding_mask here is the keep mask (True for real tokens), so ~key_padding_mask is True exactly at padding and gets -inf; triu(.., 1) is True strictly above the diagonal, the future keys; after the heads are folded into the batch, query.size(-1) is the per-head width; every query row keeps at least its own (or the first real) key; what a naive linter could misread: ATT002 (~ applied to something named key_padding_mask, a mask expanded over heads and reshaped), ATT007 (-inf fills), ATT004 (sqrt of the query's last axis on 3-D tensors), ATT001 (softmax module built in __init__), ATT005 (key.transpose(-2, -1) on 3-D keys)
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/mehreganmohseni/translation-transformer https://github.com/mehreganmohseni/translation-transformer/commit/dce76678982b1bdb1e78e93cc0fd9e9189e49595 modelling/attention.py
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, mask_future: bool = False):
        super().__init__()
        self.mask_future = mask_future
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, query, key, value, attention_mask=None):
        d_k = query.size(-1)
        scores = query @ key.transpose(-2, -1) / math.sqrt(d_k)
        if attention_mask is not None:
            key_padding_mask = attention_mask[:, None, :].to(torch.bool)
            scores = scores.masked_fill(~key_padding_mask, float("-inf"))
        if self.mask_future:
            q_len, k_len = query.size(-2), key.size(-2)
            causal_mask = torch.triu(torch.ones(q_len, k_len, dtype=torch.bool, device=query.device), diagonal=1)
            scores = scores.masked_fill(causal_mask, float("-inf"))
        return self.softmax(scores) @ value


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden_dim: int, num_heads: int, mask_future: bool = False):
        super().__init__()
        self.hidden_dim, self.num_heads, self.head_dim = hidden_dim, num_heads, hidden_dim // num_heads
        self.query_transform = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.key_transform = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.value_transform = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.output_transform = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.attention = Attention(mask_future=mask_future)

    def _split(self, x):
        b, n, _ = x.shape
        return x.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, query, key, value, attention_mask=None):
        b = query.size(0)
        q = self._split(self.query_transform(query)).reshape(b * self.num_heads, -1, self.head_dim)
        k = self._split(self.key_transform(key)).reshape(b * self.num_heads, -1, self.head_dim)
        v = self._split(self.value_transform(value)).reshape(b * self.num_heads, -1, self.head_dim)
        mask = None
        if attention_mask is not None:
            mask = attention_mask.unsqueeze(1).expand(b, self.num_heads, -1).reshape(b * self.num_heads, -1)
        out = self.attention(q, k, v, mask).view(b, self.num_heads, -1, self.head_dim)
        out = out.transpose(1, 2).contiguous().view(b, -1, self.hidden_dim)
        return self.output_transform(out)
