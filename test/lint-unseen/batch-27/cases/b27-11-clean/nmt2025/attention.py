# case: b27-11-clean
# modelled-on: cupkk/attention-is-all-you-need-2025 https://github.com/cupkk/attention-is-all-you-need-2025/commit/fbb4ea487480a28ddacfcce5bc5f1fcc26c33eec
# label: correct
# class: clean
# pattern: a 2025 re-implementation of the original Transformer whose own multi-head attention copies the calling convention of nn.MultiheadAttention (attn_mask and key_padding_mask, True = hidden): a masks module builds triu(ones(bool), diagonal=1) as the target mask, an all-False source mask and src == pad / tgt == pad padding masks; the attention module precomputes self.scale = 1 / sqrt(head_dim), multiplies Q @ K.transpose(-2, -1) by it, unsqueezes 2-D / 3-D attn_masks to 4-D, fills attn_mask and key_padding_mask[:, None, None, :] with -inf, softmax(dim=-1); the decoder layer passes the causal and target padding masks to self-attention and only the memory padding mask to cross-attention
# why: correct: every mask is True on what must be hidden (future positions, <pad> tokens) and masked_fill writes -inf exactly there, the convention the module copies; the scale is 1/sqrt of the per-head width; each row keeps at least its diagonal (or its first real source token), so -inf gives no NaN; cross-attention takes no causal mask
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/cupkk/attention-is-all-you-need-2025 https://github.com/cupkk/attention-is-all-you-need-2025/commit/fbb4ea487480a28ddacfcce5bc5f1fcc26c33eec models/MultiHeadAttention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, attn_dropout=0.1, bias=True):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.attn_dropout = nn.Dropout(attn_dropout)

    def forward(self, query, key, value, attn_mask=None, key_padding_mask=None):
        B, Q_len, _ = query.shape
        K_len = key.shape[1]
        Q = self.q_proj(query).view(B, Q_len, self.num_heads, self.head_dim).transpose(1, 2)
        K = self.k_proj(key).view(B, K_len, self.num_heads, self.head_dim).transpose(1, 2)
        V = self.v_proj(value).view(B, K_len, self.num_heads, self.head_dim).transpose(1, 2)

        attn_weights = torch.matmul(Q, K.transpose(-2, -1)) * self.scale
        if attn_mask is not None:
            if attn_mask.dim() == 2:
                attn_mask = attn_mask.unsqueeze(0).unsqueeze(0)
            elif attn_mask.dim() == 3:
                attn_mask = attn_mask.unsqueeze(1)
            attn_weights = attn_weights.masked_fill(attn_mask, float('-inf'))
        if key_padding_mask is not None:
            attn_weights = attn_weights.masked_fill(key_padding_mask.unsqueeze(1).unsqueeze(2), float('-inf'))

        attn_weights = self.attn_dropout(F.softmax(attn_weights, dim=-1))
        out = torch.matmul(attn_weights, V).transpose(1, 2).contiguous().view(B, Q_len, self.embed_dim)
        return self.out_proj(out), attn_weights
