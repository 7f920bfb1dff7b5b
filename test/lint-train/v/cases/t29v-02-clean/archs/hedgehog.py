# case: t29v-02-clean
# modelled-on: weihan28/paper_arch_implementations https://github.com/weihan28/paper_arch_implementations/commit/49ae4eb7b17c8e3eb5c2cdd45cf24316f9026a6e
# label: correct
# class: clean
# pattern: paper re-implementations (linear attention, Hedgehog): a pluggable AttentionLayer whose NaiveQKVProj projects queries from a source_dim stream and keys/values from a target_dim stream into [B, T, H, qk_dim]; LinearAttention and its causal variant replace softmax(q k^T) by phi(q) phi(k)^T with a per-query normaliser and no 1/sqrt(d); Hedgehog's teacher map is softmax(einsum("bthd,bThd->bthT", q, k) / q.shape[-1] ** 0.5, dim=-1) and its student map is phi(q) phi(k)^T divided by its own sum over the last axis; a forward hook on the projection recomputes both maps for the distillation loss
# why: correct: linear attention has no softmax to temper, so the missing 1/sqrt(d) is the method (the per-query normaliser z makes each row sum to one); the teacher's scale is q.shape[-1] ** 0.5 on a [B, T, H, D] tensor, i.e. sqrt(qk_dim), one head's width, and the same width on both sides of a cross-attention (W_q and W_k both produce n_heads * qk_dim whatever source_dim and target_dim are); the einsum output is "bthT", so dim=-1 and the student's sum(dim=-1) both run over the keys; no transpose is needed because the einsum names d on both operands
# looks-like: ATT003, ATT004, ATT001, ATT005
# source: https://github.com/weihan28/paper_arch_implementations https://github.com/weihan28/paper_arch_implementations/commit/49ae4eb7b17c8e3eb5c2cdd45cf24316f9026a6e core/nn/hedgehog/hedgehog.py, core/nn/linearAttention/linear_attn.py, core/nn/attn.py
from typing import Callable

import torch
from torch import nn

from .attn import AttentionLayer, NaiveQKVProj


def softmax_attention(q, k):
    scale = q.shape[-1] ** 0.5
    qk = torch.einsum("bthd,bThd->bthT", q, k) / scale
    return torch.softmax(qk, dim=-1)


def quadratic_linear_attn(phi_q, phi_k):
    qk = torch.einsum("bthd,bThd->bthT", phi_q, phi_k)
    return qk / qk.sum(dim=-1, keepdim=True)


def soft_label_cross_entropy(pred_attn, true_attn):
    loss = -(true_attn * torch.log(pred_attn + 1e-9)).sum(dim=-1)
    return loss.mean()


class HedgehogFeatureMap(nn.Module):
    def __init__(self, head_dim, act: Callable = None):
        super().__init__()
        self.act = act if act is not None else torch.exp
        self.ffn = nn.Linear(head_dim, head_dim)
        nn.init.eye_(self.ffn.weight)
        nn.init.zeros_(self.ffn.bias)

    def forward(self, x):
        x = self.ffn(x)
        return torch.cat([self.act(x), self.act(-x)], dim=-1)


class HedgehogAttention(nn.Module):
    """Wraps a frozen softmax attention layer and learns feature maps that mimic its map."""

    def __init__(self, base_attn: AttentionLayer, qk_dim, act=None):
        super().__init__()
        self.fm_q = HedgehogFeatureMap(qk_dim, act=act)
        self.fm_k = HedgehogFeatureMap(qk_dim, act=act)
        self.base_attn = base_attn
        for p in self.base_attn.parameters():
            p.requires_grad = False
        self.true_attn_map = None
        self.pred_attn_map = None
        self.base_attn.qkv_proj.register_forward_hook(self._hook)

    def _hook(self, module, inp, outp):
        q, k = outp[0], outp[1]
        if self.training:
            self.true_attn_map = softmax_attention(q, k)
            self.pred_attn_map = quadratic_linear_attn(self.fm_q(q), self.fm_k(k))

    def forward(self, x_q, **kwargs):
        return self.base_attn(x_q, **kwargs)


def build_cross_attention(n_heads=4, source_dim=128, target_dim=96, qk_dim=32, v_dim=48):
    proj = NaiveQKVProj(n_heads, source_dim, qk_dim, v_dim, target_dim=target_dim)

    def sdpa(q, k, v, mask=None, **kwargs):
        w = softmax_attention(q, k)  # [B, Tq, H, Tk]
        return torch.einsum("bthT,bThm->bthm", w, v)

    return AttentionLayer(proj, sdpa)
