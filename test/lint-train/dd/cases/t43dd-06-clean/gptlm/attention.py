# case: t43dd-06-clean
# modelled-on: eyedecay/minigpt https://github.com/eyedecay/minigpt/commit/09100b15c1853466c72d986b5915b3836a6a56ac
# label: correct
# class: clean
# pattern: a GPT attention layer with an optional KV cache `past_kv=(keys, values)`: new keys and values are concatenated after the cached ones along dim 2, the registered strict upper triangle `triu(ones(ctx, ctx), 1)` is sliced bottom-right as `[past_len:past_len + T, :total_len]` and filled in place with -inf, the scale 1/sqrt(keys.shape[-1]) is applied inside the softmax call; the module returns `(out, (keys, values))`; the generation loop in another module crops the window and calls the model without a cache
# why: correct: with P cached keys the T new queries sit at rows P..P+T-1 of the full triangle, so the bottom-right slice hides exactly each query's future among the P + T keys (and nothing when T == 1); `keys.shape[-1]` is the head width after the head split; softmax over the keys; the generator never passes a cache, so every call is the no-cache case anyway
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/eyedecay/minigpt https://github.com/eyedecay/minigpt/commit/09100b15c1853466c72d986b5915b3836a6a56ac src/model/attention.py
import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x, past_kv=None):
        b, n, _ = x.shape
        keys = self.W_key(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        queries = self.W_query(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

        past_len = past_kv[0].shape[2] if past_kv is not None else 0
        if past_kv is not None:
            past_keys, past_values = past_kv
            keys = torch.cat([past_keys, keys], dim=2)
            values = torch.cat([past_values, values], dim=2)

        scores = queries @ keys.transpose(2, 3)
        total_len = keys.shape[2]
        ahead = self.mask.bool()[past_len : past_len + n, :total_len]
        scores.masked_fill_(ahead, -torch.inf)

        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        weights = self.dropout(weights)
        ctx = (weights @ values).transpose(1, 2).contiguous().view(b, n, self.d_out)
        return self.out_proj(ctx), (keys, values)


class TinyGPT(nn.Module):
    def __init__(self, vocab, width, heads, layers, context_length):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(context_length, width)
        self.attn = nn.ModuleList(CachedSelfAttention(width, width, context_length, 0.0, heads) for _ in range(layers))
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for layer in self.attn:
            h, _ = layer(x)
            x = x + h
        return self.head(x)
