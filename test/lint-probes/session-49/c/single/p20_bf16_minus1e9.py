import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, keep):
        q, k, v = self.qkv(x).chunk(3, -1)
        s = torch.bmm(q, k.transpose(1, 2)) / q.shape[-1] ** 0.5
        s = s.masked_fill(keep[:, None, :] == 0, -1e9)  # -1e9 is well inside bfloat16's range
        return torch.bmm(F.softmax(s, dim=-1), v)


model = Block(32).to(torch.bfloat16)
x = torch.randn(4, 12, 32, dtype=torch.bfloat16)
keep = torch.ones(4, 12)
keep[:, 9:] = 0
y = model(x, keep)
