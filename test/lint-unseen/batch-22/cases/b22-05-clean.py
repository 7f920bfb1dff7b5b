# case: b22-05-clean
# modelled-on: pcmoraesmenezes/attention-from-scratch https://github.com/pcmoraesmenezes/attention-from-scratch/commit/f854fb576e63fea926be6175355579e0043020d7
# label: correct
# class: clean
# pattern: a from-scratch multi-head attention (checked for parity against nn.MultiheadAttention by its author) whose documented mask convention is "1 = ignore": a (B, S, S) mask is unsqueezed to (B, 1, S, S) and applied with scores.masked_fill(mask == 1, -1e9); the scores are divided by sqrt(head_dim) and softmaxed in float32 then cast back; a pre-norm block passes the mask through
# why: correct: with the module's own convention (values of 1 mark tokens to ignore, the same polarity as PyTorch's boolean masks), mask == 1 selects exactly the ignored positions; -1e9 is applied in the scores' dtype but the softmax upcasts, and the scale is the per-head width
# looks-like: ATT002, ATT007
# source: https://github.com/pcmoraesmenezes/attention-from-scratch https://github.com/pcmoraesmenezes/attention-from-scratch/commit/f854fb576e63fea926be6175355579e0043020d7 attention.py
import math

import torch
import torch.nn as nn


class ScratchMultiHeadAttention(nn.Module):
    def __init__(self, embedding_dim: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert embedding_dim % num_heads == 0, "embedding_dim must be divisible by num_heads"
        self.embedding_dim = embedding_dim
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        self.w_query = nn.Linear(embedding_dim, embedding_dim)
        self.w_key = nn.Linear(embedding_dim, embedding_dim)
        self.w_value = nn.Linear(embedding_dim, embedding_dim)
        self.w_out = nn.Linear(embedding_dim, embedding_dim)
        self.attn_dropout = nn.Dropout(dropout)
        self.resid_dropout = nn.Dropout(dropout)
        for lin in (self.w_query, self.w_key, self.w_value, self.w_out):
            nn.init.xavier_uniform_(lin.weight)
            nn.init.constant_(lin.bias, 0.0)

    def forward(self, x: torch.Tensor, mask: torch.Tensor = None):
        """
        x: (B, S, E)
        mask: optional (B, S, S) or (B, 1, S, S); a value of 1 marks a token to ignore
        """
        b, s, _ = x.shape
        q = self.w_query(x).view(b, s, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.w_key(x).view(b, s, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.w_value(x).view(b, s, self.num_heads, self.head_dim).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            if mask.dim() == 3:
                mask = mask.unsqueeze(1)
            scores = scores.masked_fill(mask == 1, float("-1e9"))

        # softmax in float32 for fp16 stability, then back to the input dtype
        attn_weights = torch.softmax(scores.float(), dim=-1).to(x.dtype)
        attn_weights = self.attn_dropout(attn_weights)
        context = torch.matmul(attn_weights, v)
        context = context.transpose(1, 2).contiguous().view(b, s, self.embedding_dim)
        return self.resid_dropout(self.w_out(context)), attn_weights


class PreNormBlock(nn.Module):
    def __init__(self, embedding_dim: int, num_heads: int, d_ff: int = 2048, dropout: float = 0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(embedding_dim)
        self.attn = ScratchMultiHeadAttention(embedding_dim, num_heads, dropout=dropout)
        self.norm2 = nn.LayerNorm(embedding_dim)
        self.ffn = nn.Sequential(nn.Linear(embedding_dim, d_ff), nn.GELU(), nn.Linear(d_ff, embedding_dim))

    def forward(self, x: torch.Tensor, mask: torch.Tensor = None):
        attn_out, weights = self.attn(self.norm1(x), mask=mask)
        x = x + attn_out
        return x + self.ffn(self.norm2(x)), weights
