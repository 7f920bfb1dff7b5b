import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class DotAttention(nn.Module):
    def forward(self, value: Tensor, key: Tensor, query: Tensor) -> Tensor:
        scores = torch.matmul(query, key.transpose(1, 2))
        scores = scores / math.sqrt(query.size(-1))
        weights = F.softmax(scores, dim=1)  # expect: ATT001
        return torch.matmul(weights, value)
