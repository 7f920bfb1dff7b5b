from typing import Sequence

import torch


class AdditiveHead(torch.nn.Module):
    """Additive MIL: the attention-weighted patch features are scored one by one and the scores summed."""

    def __init__(self, in_dim: int, out_dim: int, hidden: Sequence[int] = (), act: torch.nn.Module = torch.nn.ReLU()):
        super().__init__()
        widths = [in_dim, *hidden, out_dim]
        layers = []
        for i, (a, b) in enumerate(zip(widths[:-1], widths[1:])):
            layers.append(torch.nn.Linear(a, b))
            if i < len(hidden):
                layers.append(act)
        self.mlp = torch.nn.Sequential(*layers)

    def forward(self, features: torch.Tensor, weights: torch.Tensor) -> dict:
        # weights: one column of patch weights, broadcast over the feature channels
        axis = 0 if weights.ndim == 2 else 1
        patch_logits = self.mlp(weights * features)
        return {"logits": patch_logits.sum(dim=axis, keepdim=True), "patch_logits": patch_logits}
