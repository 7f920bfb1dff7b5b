import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, d_model=64, d_head=16):
        super().__init__()
        self.q = nn.Linear(d_model, d_head)
        self.k = nn.Linear(d_model, d_head)
        self.v = nn.Linear(d_model, d_head)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(1, 2)  # expect: ATT003
        return scores.softmax(dim=-1) @ self.v(x)


torch.manual_seed(0)
print(Head()(torch.randn(2, 7, 64)).shape)
