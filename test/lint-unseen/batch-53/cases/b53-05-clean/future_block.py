import torch
from torch import nn


def visible_below(t: int, device=None) -> torch.Tensor:
    """[1, 1, t, t] float: 1 on and below the diagonal (past and present), 0 above (future)."""
    ones = torch.ones(t, t, device=device)
    return torch.tril(ones)[None, None]


class FutureBlock(nn.Module):
    """Adds 0 where a query may look (key j <= query i) and -inf above the diagonal.

    Works on scores shaped [batch, heads, T, T]; the bias broadcasts over batch and heads.
    """

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        t = scores.shape[-1]
        visible = visible_below(t, scores.device)
        bias = visible.masked_fill(visible == 0, float("-inf"))
        bias = bias.masked_fill(visible == 1, 0.0)
        return scores + bias
