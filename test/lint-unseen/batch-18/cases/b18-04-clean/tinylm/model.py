# case: b18-04-clean
# modelled-on: GPUburnout/gpt2-from-scratch https://github.com/GPUburnout/gpt2-from-scratch/commit/457e507128f2d2d32a7010e6db7f17299a98045b
# label: correct
# class: clean
# pattern: a small GPT with two attention paths chosen by whether SDPA exists: the fast path calls scaled_dot_product_attention with attn_mask=None and is_causal=True and ignores the mask argument; the fallback divides by sqrt(head_dim) and fills where a tril keep mask (a (1, 1, L, L) buffer built in the model, sliced to the sequence) is 0 with -inf; generation (generate.py) re-runs the whole context every step, no KV cache
# why: correct: with no cache every call has as many keys as queries, so SDPA's causal mask is the right one; the fallback's buffer is a tril of ones, 1 = visible, and masked_fill(mask == 0, -inf) hides exactly the future; the diagonal is always visible, so no row is all -inf; the scale is per head and applied once on each path
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/GPUburnout/gpt2-from-scratch https://github.com/GPUburnout/gpt2-from-scratch/commit/457e507128f2d2d32a7010e6db7f17299a98045b model.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.dropout_p = dropout
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.use_flash = hasattr(F, "scaled_dot_product_attention")
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        b, t, c = x.shape
        qkv = self.qkv(x).reshape(b, t, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        if self.use_flash:
            out = F.scaled_dot_product_attention(
                q, k, v,
                attn_mask=None,
                dropout_p=self.dropout_p if self.training else 0.0,
                is_causal=True,
            )
        else:
            scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
            if mask is not None:
                scores = scores.masked_fill(mask == 0, float("-inf"))
            out = torch.matmul(self.dropout(F.softmax(scores, dim=-1)), v)
        return self.out_proj(out.permute(0, 2, 1, 3).reshape(b, t, c))


class Block(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        self.attention = MultiHeadAttention(embed_dim, num_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(embed_dim, 4 * embed_dim), nn.GELU(), nn.Linear(4 * embed_dim, embed_dim))
        self.norm1 = nn.LayerNorm(embed_dim)
        self.norm2 = nn.LayerNorm(embed_dim)

    def forward(self, x, mask=None):
        x = x + self.attention(self.norm1(x), mask)
        return x + self.ff(self.norm2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab_size, embed_dim=384, num_heads=6, num_layers=6, max_seq_len=256):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, embed_dim)
        self.pos = nn.Embedding(max_seq_len, embed_dim)
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads) for _ in range(num_layers)])
        self.ln_f = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, vocab_size, bias=False)
        self.register_buffer("causal_mask", self._causal(max_seq_len))

    def _causal(self, n):
        return torch.tril(torch.ones(n, n)).view(1, 1, n, n)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device).unsqueeze(0))
        mask = self.causal_mask[:, :, :t, :t]
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln_f(x))
