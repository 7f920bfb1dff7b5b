# case: t30w-01-clean
# modelled-on: zxjrsch/llm-scratch https://github.com/zxjrsch/llm-scratch/commit/b3e1c384f2db189d643fa5b581564f32126e564e
# label: correct
# class: clean
# pattern: a from-scratch grouped-query attention written with einops over five axes (b g h s d): keys and values carry a singleton heads-per-group axis and broadcast over the group's query heads in einsum; the causal mask is torch.full((s, s), -inf) passed through torch.triu(diagonal=1) and added to the scaled scores; a separate inference module keeps a KV cache of the prefill keys, appends one rotated key per step and lets the single new query attend to every cached key with no mask, subtracting the row maximum before the softmax
# why: correct: triu(diagonal=1) keeps the -inf strictly above the diagonal (the future keys) and zeroes the rest, so the additive mask removes exactly the future and every row keeps its diagonal; the full-sequence path has no cache, so the square top-left mask is the right one; in the cache module the query is the newest token, so every cached key is in its past and no mask is needed; subtracting the row maximum does not change the softmax; -inf is added in float32
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/zxjrsch/llm-scratch https://github.com/zxjrsch/llm-scratch/commit/b3e1c384f2db189d643fa5b581564f32126e564e llm/attention.py
import einops
import torch
from torch import nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.gain = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.gain


class GroupedQueryAttention(nn.Module):
    """Pre-norm GQA block with a residual; rope_module rotates (..., s, d) tensors."""

    def __init__(self, dim_model, dim_qk_head, dim_v_head, num_heads, num_groups, rope_module):
        super().__init__()
        assert num_heads % num_groups == 0
        fused = num_heads * dim_qk_head + num_groups * (dim_qk_head + dim_v_head)
        self.in_projection = nn.Linear(dim_model, fused, bias=False)
        self.out_projection = nn.Linear(num_heads * dim_v_head, dim_model, bias=False)
        self.norm = RMSNorm(dim_model)
        self.rope = rope_module
        self.dim_qk_head = dim_qk_head
        self.dim_v_head = dim_v_head
        self.num_heads = num_heads
        self.num_groups = num_groups

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.in_projection(self.norm(x))  # (b, s, fused)
        q_dim = self.num_heads * self.dim_qk_head
        k_dim = self.num_groups * self.dim_qk_head
        v_dim = self.num_groups * self.dim_v_head
        q, k, v = y.split([q_dim, k_dim, v_dim], dim=-1)

        # b batch, s sequence, g groups, h query heads per group, d head width
        q = einops.rearrange(q, "b s (g h d) -> b g h s d", g=self.num_groups, d=self.dim_qk_head)
        k = einops.rearrange(k, "b s (g d) -> b g 1 s d", g=self.num_groups)
        v = einops.rearrange(v, "b s (g d) -> b g 1 s d", g=self.num_groups)
        q = self.rope(q)
        k = self.rope(k)

        scores = einops.einsum(q, k, "b g h s1 d, b g h s2 d -> b g h s1 s2")
        s = scores.shape[-1]
        causal = torch.full((s, s), -float("inf"), device=x.device)
        causal = torch.triu(causal, diagonal=1)  # -inf above the diagonal, 0 on and below it

        scores = scores / self.dim_qk_head ** 0.5
        scores = scores + causal
        weights = torch.softmax(scores, dim=-1)

        out = einops.einsum(weights, v, "b g h s p, b g h p d -> b g h s d")
        out = einops.rearrange(out, "b g h s d -> b s (g h d)")
        return x + self.out_projection(out)
