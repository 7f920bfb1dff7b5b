import torch
import torch.nn as nn


class LearnedPowerLaw(nn.Module):
    """bias_h(i, j) = -exp(log_p_h) * log ||r_i - r_j||, one exponent per head."""

    def __init__(self, heads):
        super().__init__()
        self.log_p = nn.Parameter(torch.empty(heads, 1))
        nn.init.xavier_uniform_(self.log_p)

    def forward(self, dist):
        log_d = torch.log(dist).unsqueeze(-1).nan_to_num(torch.finfo(dist.dtype).max)
        per_head = nn.functional.linear(log_d, self.log_p.exp())
        return -per_head.permute(0, 3, 1, 2)
