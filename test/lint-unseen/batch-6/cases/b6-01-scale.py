# case: b6-01-scale
# modelled-on: klei22/nanoGPT https://github.com/klei22/nanoGPT/commit/da4533b92791939cfc76b9f95093453c13099152
# label: buggy
# class: real-bug
# pattern: an experimental "infinite head" causal attention with separate q/k/v projections, a qk-norm option with a learned scale, and an SDPA path beside a manual path; the manual path computes q @ k^T, then either multiplies by the learned qk-norm factor or divides by sqrt(head_dim)
# why: buggy: the manual path already multiplies q @ k^T by 1/sqrt(head_dim) on the product line, and the branch without qk-norm divides by sqrt(head_dim) a second time, so the scores are scaled by 1/head_dim; the fix commit ("Remove duplicate sqrt(n_head) div") drops the scale on the product line
# source: https://github.com/klei22/nanoGPT https://github.com/klei22/nanoGPT/commit/3e72b1c9a845972529c9510f93585af329209c4d variations/attention_variations.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class InfiniteHeadAttention(nn.Module):
    def __init__(self, n_embd, n_head, qk_head_dim, v_head_dim, block_size, dropout, use_qk_norm, use_qk_norm_scale, use_sdpa):
        super().__init__()
        self.n_head = n_head
        self.qk_dim = qk_head_dim
        self.v_dim = v_head_dim
        self.use_qk_norm = use_qk_norm
        self.use_qk_norm_scale = use_qk_norm_scale
        self.use_sdpa = use_sdpa
        self.dropout = dropout
        self.q_proj = nn.Linear(n_embd, n_head * qk_head_dim, bias=False)
        self.k_proj = nn.Linear(n_embd, n_head * qk_head_dim, bias=False)
        self.v_proj = nn.Linear(n_embd, n_head * v_head_dim, bias=False)
        self.out_proj = nn.Linear(n_head * v_head_dim, n_embd, bias=False)
        self.attn_dropout = nn.Dropout(dropout)
        if use_qk_norm_scale:
            g0 = math.log2(block_size * block_size - block_size)
            self.qk_norm_factor = nn.Parameter(torch.tensor(g0))
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_head, self.qk_dim).transpose(1, 2)  # (B, nh, T, dqk)
        k = self.k_proj(x).view(B, T, self.n_head, self.qk_dim).transpose(1, 2)  # (B, nh, T, dqk)
        v = self.v_proj(x).view(B, T, self.n_head, self.v_dim).transpose(1, 2)  # (B, nh, T, dv)

        if self.use_qk_norm:
            q = q / (q.norm(dim=-1, keepdim=True) + 1e-6)
            k = k / (k.norm(dim=-1, keepdim=True) + 1e-6)

        if self.use_sdpa:
            if self.use_qk_norm_scale:
                # pre-scale q so that the kernel's own 1/sqrt(d) becomes the learned factor
                q = q * (self.qk_norm_factor * math.sqrt(k.size(-1)))
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / torch.sqrt(torch.tensor([k.size(-1)], dtype=q.dtype, device=q.device)))
            if self.use_qk_norm_scale:
                att = att * self.qk_norm_factor
            else:
                att = att / torch.sqrt(torch.tensor([k.size(-1)], dtype=q.dtype, device=q.device))  # expect: ATT004
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v  # (B, nh, T, dv)

        y = y.transpose(1, 2).contiguous().view(B, T, self.n_head * self.v_dim)
        return self.out_proj(y)
