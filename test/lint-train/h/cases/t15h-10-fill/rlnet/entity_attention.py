# case: t15h-10-fill
# modelled-on: opendilab/DI-engine https://github.com/opendilab/DI-engine/commit/dc064896e164cae1061db8b1ffe7cd084a0aed1f
# label: correct
# class: fixed
# pattern: the same entity transformer after the commit "fix transformer mask bug": the (B, N) validity mask expanded to (B, 1, N, N) by the encoder is applied with the in-place score.masked_fill_(~mask, value=-1e9) before the softmax
# why: correct: masked_fill_ writes -1e9 into the scores of invalid entities (~ of the keep mask) in place, so the softmax gives them no weight; every row keeps at least one valid entity when the batch has one, and padded rows stay finite (-1e9 rather than -inf)
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/opendilab/DI-engine https://github.com/opendilab/DI-engine/commit/dc064896e164cae1061db8b1ffe7cd084a0aed1f ding/torch_utils/network/transformer.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class EntityAttention(nn.Module):
    def __init__(self, input_dim: int, head_dim: int, output_dim: int, head_num: int, dropout: nn.Module) -> None:
        super().__init__()
        self.head_num = head_num
        self.head_dim = head_dim
        self.dropout = dropout
        self.pre = nn.Linear(input_dim, head_dim * head_num * 3)  # query, key, value
        self.project = nn.Linear(head_dim * head_num, output_dim)

    def split(self, x: torch.Tensor, T: bool = False) -> torch.Tensor:
        B, N = x.shape[:2]
        x = x.view(B, N, self.head_num, self.head_dim).permute(0, 2, 1, 3).contiguous()  # B, heads, N, head_dim
        if T:
            x = x.permute(0, 1, 3, 2).contiguous()  # B, heads, head_dim, N
        return x

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        assert len(x.shape) == 3
        B, N = x.shape[:2]
        query, key, value = torch.chunk(self.pre(x), 3, dim=2)
        query, key, value = self.split(query), self.split(key, T=True), self.split(value)

        score = torch.matmul(query, key)  # B, heads, N, N
        score /= math.sqrt(self.head_dim)
        if mask is not None:
            score.masked_fill_(~mask, value=-1e9)

        score = self.dropout(F.softmax(score, dim=-1))
        out = torch.matmul(score, value).permute(0, 2, 1, 3).contiguous()  # B, N, heads, head_dim
        return self.project(out.view(B, N, -1))
