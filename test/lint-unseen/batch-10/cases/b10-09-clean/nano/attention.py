# case: b10-09-clean
# modelled-on: quietsmile/nanogpt https://github.com/quietsmile/nanogpt/commit/fdd2fd8
# label: correct
# class: clean
# pattern: a boolean keep mask (same document and causal, True = attend) built in the model from EOD tokens and passed to an attention module in another file, which hands it to SDPA with is_causal=False or inverts it with ~ for masked_fill; without a mask it uses is_causal=True or the tril buffer
# why: SDPA's boolean attn_mask is True where attention is allowed, the same polarity as the document mask; the eager paths fill ~mask, i.e. the disallowed pairs; is_causal is only set when no mask is given, and the diagonal is always kept
# looks-like: ATT002, ATT003, ATT007, ATT008
# source: https://github.com/quietsmile/nanogpt https://github.com/quietsmile/nanogpt/commit/fdd2fd8 nanogpt/model/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size, dropout=0.0, impl="sdpa"):
        super().__init__()
        self.n_head = n_head
        self.n_embd = n_embd
        self.head_dim = n_embd // n_head
        self.dropout = dropout
        self.impl = impl
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.attn_dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x, attn_mask=None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.head_dim).transpose(1, 2)

        if self.impl == "fp32_manual":
            att = (q.float() @ k.float().transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
            if attn_mask is None:
                keep = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
                att = att.masked_fill(~keep, float("-inf"))
            else:
                att = att.masked_fill(~attn_mask, float("-inf"))
            y = (F.softmax(att, dim=-1) @ v.float()).to(q.dtype)
        elif self.impl == "sdpa":
            if attn_mask is None:
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)
            else:
                # attn_mask: boolean [B, 1, T, T], True = attend; SDPA takes is_causal=False with an explicit mask
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=self.dropout if self.training else 0, is_causal=False)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            if attn_mask is None:
                att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            else:
                att = att.masked_fill(~attn_mask, float("-inf"))
            y = self.attn_dropout(F.softmax(att, dim=-1)) @ v

        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)
