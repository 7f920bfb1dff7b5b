# case: b23-12-clean
# modelled-on: sruthi41210/Interpretable-DNA-Transformer https://github.com/sruthi41210/Interpretable-DNA-Transformer/commit/84a862fe24195c9980f81974c4b729d8faadc9a2
# label: correct
# class: clean
# pattern: a small DNA sequence classifier: the dataset module in another file prepends a CLS token, right-pads with PAD_ID and returns a long 0/1 mask (1 = real token, the Hugging Face convention); the attention module takes that (B, L) mask, reshapes it to (B, 1, 1, L), casts it to bool and fills the scores with -inf where ~mask, after scaling by 1/sqrt(d_head); the model reads the CLS position
# why: correct: the mask is a keep mask, so ~mask is True exactly on the padded keys, the ones filled with -inf; every row keeps at least the CLS key, so no row is all -inf; the scale is the per-head width d_model // n_heads and the softmax is over the keys
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/sruthi41210/Interpretable-DNA-Transformer https://github.com/sruthi41210/Interpretable-DNA-Transformer/commit/84a862fe24195c9980f81974c4b729d8faadc9a2 src/models/model.py
import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, attn_mask=None):
        b, n, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = k.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = v.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.d_head)
        if attn_mask is not None:
            keep = attn_mask[:, None, None, :].to(dtype=torch.bool)  # (B, 1, 1, L), True on real keys
            scores = scores.masked_fill(~keep, float("-inf"))
        a = self.drop(torch.softmax(scores, dim=-1))
        return self.out((a @ v).transpose(1, 2).contiguous().view(b, n, d))


class Block(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout=0.1):
        super().__init__()
        self.attn = SelfAttention(d_model, n_heads, dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, x, attn_mask=None):
        x = x + self.attn(self.ln1(x), attn_mask=attn_mask)
        return x + self.ff(self.ln2(x))


class DNAClassifier(nn.Module):
    def __init__(self, vocab_size, max_len, d_model=128, n_layers=4, n_heads=4, d_ff=512, n_classes=2):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, d_ff) for _ in range(n_layers)])
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, ids, attn_mask=None):
        pos = torch.arange(ids.size(1), device=ids.device)[None, :].expand_as(ids)
        x = self.tok(ids) + self.pos(pos)
        for blk in self.blocks:
            x = blk(x, attn_mask=attn_mask)
        return self.head(self.ln(x)[:, 0, :])  # the CLS token
