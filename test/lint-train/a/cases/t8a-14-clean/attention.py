# case: t8a-14-clean
# modelled-on: ambideXtrous9/Transformer-from-Scratch https://github.com/ambideXtrous9/Transformer-from-Scratch/commit/0aa0fe7010f8caeaf2a19f79db6602aaecfcf9fb
# label: correct
# class: clean
# pattern: an encoder-decoder built from one attention module used for encoder self-attention, causal decoder self-attention and cross-attention: it reshapes a (B, L) keep mask to (B, 1, 1, L) and fills masked_fill(mask == 0, -inf), then, when causal, fills where tril(ones(L, L_kv)) == 0; the masks come from a Hugging Face tokenizer's attention_mask (source) and (ids != pad_id) (target) in the dataset module
# why: correct: both masks are keep masks (1 = token) and the fill goes where they are 0; the causal triangle is only used for decoder self-attention, where L == L_kv; padding is on the right and key 0 (the first token or BOS, never [PAD]) stays open in every row, so no row is all -inf
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ambideXtrous9/Transformer-from-Scratch https://github.com/ambideXtrous9/Transformer-from-Scratch/commit/0aa0fe7010f8caeaf2a19f79db6602aaecfcf9fb MultiHeadSelfAttention.py
from typing import Optional

import torch
import torch.nn as nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1, causal: bool = False):
        super().__init__()
        self.d_model, self.num_heads, self.d_k = d_model, num_heads, d_model // num_heads
        self.causal = causal
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.softmax = nn.Softmax(dim=-1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None, kv: Optional[torch.Tensor] = None):
        """mask: (B, L_kv) keep mask, or already (B, 1, 1, L_kv) / (B, 1, L, L_kv)."""
        B, L, _ = x.size()
        kv = kv if kv is not None else x
        L_kv = kv.size(1)
        split = lambda t, n: t.view(B, n, self.num_heads, self.d_k).transpose(1, 2)
        Q, K, V = split(self.W_q(x), L), split(self.W_k(kv), L_kv), split(self.W_v(kv), L_kv)

        scores = torch.matmul(Q, K.transpose(-2, -1)) / (self.d_k ** 0.5)  # (B, H, L, L_kv)
        if mask is not None:
            if mask.dim() == 2:
                mask = mask.unsqueeze(1).unsqueeze(2)
            elif mask.dim() == 3:
                mask = mask.unsqueeze(1)
            scores = scores.masked_fill(mask == 0, float("-inf"))
        if self.causal:
            tri = torch.tril(torch.ones(L, L_kv, device=x.device)).unsqueeze(0).unsqueeze(0)
            scores = scores.masked_fill(tri == 0, float("-inf"))
        weights = self.dropout(self.softmax(scores))
        out = torch.matmul(weights, V).transpose(1, 2).contiguous().view(B, L, self.d_model)
        return self.W_o(out), weights


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.self_attn = MultiHeadSelfAttention(d_model, num_heads, causal=True)
        self.cross_attn = MultiHeadSelfAttention(d_model, num_heads, causal=False)
        self.n1, self.n2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, enc_out, tgt_mask=None, memory_mask=None):
        h, _ = self.self_attn(x, tgt_mask)
        x = self.n1(x + h)
        h, _ = self.cross_attn(x, memory_mask, kv=enc_out)
        return self.n2(x + h)
