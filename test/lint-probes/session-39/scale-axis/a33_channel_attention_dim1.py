import torch
import torch.nn as nn


class SelectiveKernel(nn.Module):
    """SKNet: softmax across the branches (axis 1) of per-channel logits: a selection, not token attention."""

    def __init__(self, c, branches=2, r=16):
        super().__init__()
        self.branches = branches
        self.fc = nn.Linear(c, c // r)
        self.fcs = nn.ModuleList([nn.Linear(c // r, c) for _ in range(branches)])

    def forward(self, feats):
        # feats: (B, M, C, H, W)
        u = feats.sum(1).mean(dim=(2, 3))  # (B, C)
        z = self.fc(u)
        logits = torch.stack([fc(z) for fc in self.fcs], dim=1)  # (B, M, C)
        a = torch.softmax(logits, dim=1)
        return (feats * a[..., None, None]).sum(1)
