import torch
from torch import nn


class AttentivePooling(nn.Module):
    """Additive attention pooling: one score per item, normalised over the item axis."""

    def __init__(self, input_dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.score = nn.Sequential(
            nn.Linear(input_dim, hidden_dim),  # (batch, items, hidden)
            nn.Tanh(),
            nn.Linear(hidden_dim, 1, bias=False),  # (batch, items, 1)
            nn.Softmax(dim=-2),
        )
        for m in self.score:
            if isinstance(m, nn.Linear):
                nn.init.xavier_uniform_(m.weight.data)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    def forward(self, items: torch.Tensor) -> torch.Tensor:
        weights = self.score(items)
        return (items * weights).sum(dim=1)
