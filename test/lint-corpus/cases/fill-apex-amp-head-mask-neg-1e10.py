# case: fill-apex-amp-head-mask-neg-1e10
# modelled-on: NVIDIA/apex https://github.com/NVIDIA/apex/issues/1105
# label: buggy
# pattern: per-head attention scores are masked with masked_fill(head_mask == 0, -1e10) in a model trained with apex amp at opt_level O2 (fp16 weights and activations)
# why: the scores are half precision under O2, and -1e10 is out of float16's range: "value cannot be converted to type at::Half without overflow: -1e+10"
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from apex import amp


class HeadAttention(nn.Module):
    def __init__(self, d_model: int, d_head: int):
        super().__init__()
        self.q = nn.Linear(d_model, d_head)
        self.k = nn.Linear(d_model, d_head)
        self.v = nn.Linear(d_model, d_head)
        self.d_head = d_head

    def forward(self, x: torch.Tensor, head_mask: torch.Tensor) -> torch.Tensor:
        # x: (B, N, d_model); head_mask: (B, N, N) 1 = may attend
        attn_scores_head = torch.bmm(self.q(x), self.k(x).transpose(1, 2)) / math.sqrt(self.d_head)
        attn_scores_head = attn_scores_head.masked_fill(head_mask == 0, -1e10)  # expect: ATT007
        attn_probs = F.softmax(attn_scores_head, dim=-1)
        return torch.bmm(attn_probs, self.v(x))


class GraphAttentionEncoder(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.heads = nn.ModuleList([HeadAttention(d_model, d_model // n_heads) for _ in range(n_heads)])
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, head_masks):
        return self.out(torch.cat([h(x, m) for h, m in zip(self.heads, head_masks)], dim=-1))


def setup(model: nn.Module, lr: float = 1e-4):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    model, optimizer = amp.initialize(model.cuda(), optimizer, opt_level="O2")
    return model, optimizer
