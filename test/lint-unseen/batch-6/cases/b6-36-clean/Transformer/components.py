# case: b6-36-clean
# modelled-on: SHuBhAM71205/Attention-is-all-you-Need https://github.com/SHuBhAM71205/Attention-is-all-you-Need/commit/0c4ae9f6b69f41a31c79a9b64850deecf5099ed8
# label: correct
# class: clean
# pattern: an encoder-decoder translation transformer whose attention keeps one query projection per head (a (heads, E, O_dim) parameter) and a shared key/value projection, scales Q K^T by sqrt(O_dim), subtracts the row max, hides the future with triu(ones, 1).bool() in its 'masked' mode and then fills masked_fill(attn_mask, -inf) with a padding mask built in the model module as (token_ids == pad_id), documented there as True where PAD, and unsqueezed to (B, 1, 1, S) by the decoder layer
# why: correct: each head's queries and keys have O_dim = embedding_dims // n_heads features, which is the scale; triu(ones, 1) is True at the future keys and the padding mask is True at the padding, and masked_fill hides exactly the True positions before the softmax over the keys
# looks-like: ATT002, ATT004, ATT006
# source: https://github.com/SHuBhAM71205/Attention-is-all-you-Need https://github.com/SHuBhAM71205/Attention-is-all-you-Need/commit/0c4ae9f6b69f41a31c79a9b64850deecf5099ed8 Transformer/components.py
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, embedding_dims, O_dim, heads=1, mode="multihead"):
        """mode: 'multihead' (self / cross) or 'masked' (causal self-attention, one head)."""
        super().__init__()
        self.mode = mode
        self.O_dim = O_dim
        self.heads = heads if mode == "multihead" else 1
        self.q = nn.Parameter(torch.randn((self.heads, embedding_dims, O_dim)))
        self.k = nn.Parameter(torch.randn((embedding_dims, O_dim)))
        self.v = nn.Parameter(torch.randn((embedding_dims, O_dim)))
        self.Wo = nn.Parameter(torch.randn((O_dim * self.heads, embedding_dims)))

    def forward(self, q, kv=None, attn_mask=None):
        """q: (B, S_q, E); kv: (B, S_k, E) or None for self-attention."""
        if kv is None:
            kv = q
        B, S_q, E = q.shape
        _, S_k, _ = kv.shape
        Q = q.unsqueeze(1) @ self.q  # (B, heads, S_q, O_dim)
        K = (kv @ self.k).unsqueeze(1)  # (B, 1, S_k, O_dim)
        V = (kv @ self.v).unsqueeze(1)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.O_dim)  # (B, heads, S_q, S_k)
        scores = scores - scores.max(dim=-1, keepdim=True).values
        if self.mode == "masked":
            mask = torch.triu(torch.ones(S_q, S_k, device=scores.device), diagonal=1).bool()
            scores = scores.masked_fill(mask, float("-inf"))
        if attn_mask is not None:
            scores = scores.masked_fill(attn_mask, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        context = (probs @ V).permute(0, 2, 1, 3).reshape(B, S_q, self.O_dim * self.heads)
        return context @ self.Wo
