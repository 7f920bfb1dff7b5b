# case: softmax-soft-moe-dispatch-batch-axis
# modelled-on: fkodom/soft-mixture-of-experts https://github.com/fkodom/soft-mixture-of-experts/pull/1
# label: buggy
# pattern: Soft MoE layer; the slot logits come from einops.einsum(x, phi, "b m d, d n p -> b m n p"), the dispatch weights are logits.softmax(dim=0) (the paper's axis 0, written for unbatched input) and are contracted with x over m in a second einsum; the combine weights flatten (n p) and softmax the last axis
# why: with the batch axis in front, dim=0 normalises each slot's weights across the examples of the batch instead of over the m input tokens; the merged PR changed it to dim=1
import math

import torch
from einops import einsum, rearrange
from torch import Tensor, nn


class SoftMoE(nn.Module):
    """Soft mixture of experts: b batch, m tokens, d width, n experts, p slots per expert."""

    def __init__(self, in_features: int, out_features: int, num_experts: int, slots_per_expert: int):
        super().__init__()
        self.in_features = in_features
        self.num_experts = num_experts
        self.phi = nn.Parameter(torch.empty(in_features, num_experts, slots_per_expert))
        self.experts = nn.ModuleList([nn.Linear(in_features, out_features) for _ in range(num_experts)])
        nn.init.kaiming_uniform_(self.phi, a=math.sqrt(5))

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 3:
            raise ValueError(f"Expected input to have 3 dimensions, but got {x.ndim}.")
        logits = einsum(x, self.phi, "b m d, d n p -> b m n p")
        dispatch_weights = logits.softmax(dim=0)  # expect: ATT001
        combine_weights = rearrange(
            logits.flatten(start_dim=2).softmax(dim=-1),
            "b m (n p) -> b m n p",
            n=self.num_experts,
        )
        slots = einsum(x, dispatch_weights, "b m d, b m n p -> b n p d")
        outs = torch.stack([expert(slots[:, i]) for i, expert in enumerate(self.experts)], dim=1)
        return einsum(outs, combine_weights, "b n p d, b m n p -> b m d")
