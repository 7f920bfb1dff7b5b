import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryReader(nn.Module):
    def __init__(self, dim, temperature=0.07):
        super().__init__()
        self.temperature = temperature
        self.q = nn.Linear(dim, dim)

    def forward(self, x, memory_keys, memory_values):
        q = F.normalize(self.q(x), dim=-1)  # (B, d)
        keys = F.normalize(memory_keys, dim=-1)  # (M, d)
        sim = q @ keys.t() / self.temperature
        w = sim.softmax(-1)
        return w @ memory_values
