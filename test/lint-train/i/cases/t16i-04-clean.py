# case: t16i-04-clean
# modelled-on: mcarbonell/tiny-llm https://github.com/mcarbonell/tiny-llm/commit/84dfc4ae622c96b91c952954e574d4f8a3e3bad1
# label: correct
# class: clean
# pattern: a LLaMA-style small model (GQA by expand/flatten, LoRA projections): the model builds an additive causal mask for multi-token inputs as zeros.masked_fill(ones.tril(diagonal=0).logical_not(), -inf) and None for a single token; the attention concatenates a past (k, v) pair and calls SDPA with attn_mask=None, is_causal=True only when there is no cache and more than one token, otherwise with attn_mask=mask and is_causal=False
# why: correct: tril(...).logical_not() is True strictly above the diagonal, so -inf lands on the future keys only; the is_causal path runs only for square self-attention without a cache; a decode step (one token, cache present) gets mask None and is_causal=False, so the query sees every cached key; the real model also indexed its RoPE table from 0 on every cached step, a position defect unrelated to the mask that the case leaves out (positions start at the cache length)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/mcarbonell/tiny-llm https://github.com/mcarbonell/tiny-llm/commit/84dfc4ae622c96b91c952954e574d4f8a3e3bad1 model/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.n_rep = n_heads // n_kv_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)

    def forward(self, x, rotary, mask, past_key_value=None):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq, xk = rotary(xq, xk)
        if self.n_rep > 1:
            xk = xk[:, :, :, None, :].expand(bsz, seqlen, self.n_kv_heads, self.n_rep, self.head_dim).flatten(2, 3)
            xv = xv[:, :, :, None, :].expand(bsz, seqlen, self.n_kv_heads, self.n_rep, self.head_dim).flatten(2, 3)
        xq, xk, xv = xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2)
        if past_key_value is not None:
            xk = torch.cat([past_key_value[0], xk], dim=2)
            xv = torch.cat([past_key_value[1], xv], dim=2)

        if past_key_value is None and seqlen > 1:
            out = F.scaled_dot_product_attention(xq, xk, xv, attn_mask=None, dropout_p=0.0, is_causal=True)
        else:
            out = F.scaled_dot_product_attention(xq, xk, xv, attn_mask=mask, dropout_p=0.0, is_causal=False)
        out = out.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(out), (xk, xv)


def causal_bias(seqlen, device, dtype):
    if seqlen == 1:
        return None
    bias = torch.zeros(seqlen, seqlen, device=device, dtype=dtype)
    future = torch.ones(seqlen, seqlen, device=device, dtype=torch.bool).tril(diagonal=0).logical_not()
    return bias.masked_fill(future, float("-inf")).view(1, 1, seqlen, seqlen)


class TinyModel(nn.Module):
    def __init__(self, vocab, dim, n_heads, n_kv_heads, n_layers, rotary_for):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([Attention(dim, n_heads, n_kv_heads) for _ in range(n_layers)])
        self.out = nn.Linear(dim, vocab, bias=False)
        self.rotary_for = rotary_for

    def forward(self, tokens, past_key_values=None):
        _, seqlen = tokens.shape
        h = self.emb(tokens)
        start = past_key_values[0][0].shape[2] if past_key_values is not None else 0
        rotary = self.rotary_for(start, seqlen)
        mask = causal_bias(seqlen, tokens.device, h.dtype)
        new_kvs = []
        for i, layer in enumerate(self.layers):
            pkv = past_key_values[i] if past_key_values is not None else None
            a, kv = layer(h, rotary, mask, pkv)
            h = h + a
            new_kvs.append(kv)
        return self.out(h), new_kvs
