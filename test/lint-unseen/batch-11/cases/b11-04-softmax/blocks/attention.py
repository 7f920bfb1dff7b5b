import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class DotAttention(nn.Module):
    def forward(self, value: Tensor, key: Tensor, query: Tensor, mask: Tensor) -> Tensor:
        scores = torch.matmul(query, key.transpose(1, 2))
        scores = scores / math.sqrt(query.size(-1))
        lowest = torch.finfo(scores.dtype).min
        scores = scores.masked_fill(mask == -1, lowest)  # -1 marks an empty vehicle slot
        weights = F.softmax(scores, dim=-1)
        return torch.matmul(weights, value)
