# case: scale-cellcap-temperature-no-sqrt
# modelled-on: broadinstitute/CellCap https://github.com/broadinstitute/CellCap/issues/35
# label: buggy
# pattern: a perturbation model attends from a cell's basal latent state over learned response programs with a bmm dot product, flattened to (B * L, S) and divided only by a fixed temperature before the softmax
# why: the maintainers' issue asks for softmax(tau / sqrt(K) * z . kappa), as in the manuscript; without 1/sqrt(K) the logits grow with the latent size K and the attention becomes near one-hot
from typing import Tuple

import torch
import torch.nn.functional as F
from torch import Tensor


class DotProductAttention(torch.nn.Module):
    """Dot products of the query with all keys, then a softmax over the keys."""

    def __init__(self, temp: float = 0.5):
        super().__init__()
        self.temp = temp

    def forward(self, query: Tensor, key: Tensor, value: Tensor) -> Tuple[Tensor, Tensor]:
        # query: (B, L, K); key, value: (B, S, K) with K the latent size
        batch_size, input_size = query.size(0), value.size(1)
        score = torch.bmm(query, key.transpose(1, 2))
        attn = F.softmax(score.view(-1, input_size) / self.temp, dim=1).view(batch_size, -1, input_size)  # expect: ATT003
        context = torch.bmm(attn, value)
        return context, attn


class ResponseProgramAttention(torch.nn.Module):
    def __init__(self, n_latent: int, n_prog: int, n_drug: int, temp: float = 0.5):
        super().__init__()
        self.programs = torch.nn.Parameter(torch.randn(n_drug, n_prog, n_latent) * 0.1)
        self.attention = DotProductAttention(temp)

    def forward(self, z_basal: Tensor, drug_idx: Tensor) -> Tuple[Tensor, Tensor]:
        keys = self.programs[drug_idx]  # (B, n_prog, n_latent)
        return self.attention(z_basal.unsqueeze(1), keys, keys)
