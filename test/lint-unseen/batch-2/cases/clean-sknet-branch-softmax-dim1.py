# case: clean-sknet-branch-softmax-dim1
# modelled-on: pppLang/SKNet https://github.com/pppLang/SKNet/issues/1
# label: correct
# class: clean
# pattern: selective-kernel attention: M branch outputs stacked on dim 1, a per-branch channel descriptor stacked the same way to (B, M, C), and an nn.Softmax(dim=1) module built in __init__ that normalises across the branches
# why: SKNet's attention chooses between kernel sizes per channel, so the weights of one channel must sum to 1 over the M branches (dim 1), not over the C channels; the reporter of issue #1 proposed dim=2 and withdrew after reading the paper
# looks-like: ATT001, ATT003
# source: https://github.com/pppLang/SKNet https://github.com/pppLang/SKNet/issues/1 sknet.py
import torch
from torch import nn


class SelectiveKernel(nn.Module):
    def __init__(self, features: int, branches: int, groups: int, r: int, stride: int = 1, min_len: int = 32):
        super().__init__()
        d = max(int(features / r), min_len)
        self.branches = branches
        self.convs = nn.ModuleList(
            [
                nn.Sequential(
                    nn.Conv2d(features, features, kernel_size=3 + 2 * i, stride=stride, padding=1 + i, groups=groups),
                    nn.BatchNorm2d(features),
                    nn.ReLU(inplace=False),
                )
                for i in range(branches)
            ]
        )
        self.squeeze = nn.Linear(features, d)
        self.excite = nn.ModuleList([nn.Linear(d, features) for _ in range(branches)])
        self.select = nn.Softmax(dim=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (B, C, H, W)
        feas = torch.stack([conv(x) for conv in self.convs], dim=1)  # (B, M, C, H, W)
        fused = feas.sum(dim=1)  # (B, C, H, W)
        s = fused.mean(-1).mean(-1)  # (B, C)
        z = self.squeeze(s)  # (B, d)
        logits = torch.stack([fc(z) for fc in self.excite], dim=1)  # (B, M, C)
        weights = self.select(logits)  # (B, M, C), sums to 1 over the M branches
        weights = weights.unsqueeze(-1).unsqueeze(-1)  # (B, M, C, 1, 1)
        return (feas * weights).sum(dim=1)  # (B, C, H, W)
