# case: t15h-09-fill
# modelled-on: opendilab/DI-engine https://github.com/opendilab/DI-engine/commit/3bf01a9212c0b4a1a4d0877884941d5ad70630cd
# label: buggy
# class: real-bug
# pattern: a reinforcement-learning library's entity transformer: the encoder turns a (B, N) validity mask (True = a real entity) into (B, 1, N, N) with unsqueeze/repeat and hands it to each layer; the attention splits a fused qkv projection into heads (keys already transposed by the split helper), divides the scores in place by sqrt(head_dim) and, under "if mask is not None", calls score.masked_fill(~mask, value=-1e9) as a statement of its own before the softmax
# why: buggy: Tensor.masked_fill is out of place and its result is dropped, so invalid (padded) entities are never masked and every entity attends to them; the maintainers confirmed it on the issue tracker ("It is indeed a mistake") and fixed it with the in-place masked_fill_ (see the fixed case); the polarity (~ of a keep mask) and the finite fill are right
# source: https://github.com/opendilab/DI-engine https://github.com/opendilab/DI-engine/commit/3bf01a9212c0b4a1a4d0877884941d5ad70630cd ding/torch_utils/network/transformer.py
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
            score.masked_fill(~mask, value=-1e9)  # expect: ATT007

        score = self.dropout(F.softmax(score, dim=-1))
        out = torch.matmul(score, value).permute(0, 2, 1, 3).contiguous()  # B, N, heads, head_dim
        return self.project(out.view(B, N, -1))
