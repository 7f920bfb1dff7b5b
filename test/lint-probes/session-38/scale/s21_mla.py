import torch
import torch.nn as nn


class MLA(nn.Module):
    def __init__(self, dim, n_heads, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128):
        super().__init__()
        self.n_heads = n_heads
        self.qk_nope_head_dim = qk_nope_head_dim
        self.qk_rope_head_dim = qk_rope_head_dim
        self.qk_head_dim = qk_nope_head_dim + qk_rope_head_dim
        self.v_head_dim = v_head_dim
        self.wq = nn.Linear(dim, n_heads * self.qk_head_dim)
        self.wkv = nn.Linear(dim, n_heads * (qk_nope_head_dim + v_head_dim))
        self.wk_pe = nn.Linear(dim, qk_rope_head_dim)
        self.softmax_scale = self.qk_head_dim ** -0.5

    def forward(self, x):
        bsz, seqlen, _ = x.shape
        q = self.wq(x).view(bsz, seqlen, self.n_heads, self.qk_head_dim)
        q_nope, q_pe = torch.split(q, [self.qk_nope_head_dim, self.qk_rope_head_dim], dim=-1)
        kv = self.wkv(x).view(bsz, seqlen, self.n_heads, self.qk_nope_head_dim + self.v_head_dim)
        k_nope, v = torch.split(kv, [self.qk_nope_head_dim, self.v_head_dim], dim=-1)
        k_pe = self.wk_pe(x).unsqueeze(2).expand(-1, -1, self.n_heads, -1)
        q = torch.cat([q_nope, q_pe], dim=-1)
        k = torch.cat([k_nope, k_pe], dim=-1)
        scores = torch.einsum("bshd,bthd->bsht", q, k) * self.softmax_scale
        scores = scores.softmax(dim=-1)
        return torch.einsum("bsht,bthd->bshd", scores, v).flatten(2)
