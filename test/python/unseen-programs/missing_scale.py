# label: buggy
# why: d_k = 64 and the scores go into softmax unscaled
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, n_embd, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        k = self.key(x)  # (B, T, hs)
        q = self.query(x)  # (B, T, hs)
        wei = q @ k.transpose(-2, -1)  # expect: ATT003
        wei = F.softmax(wei, dim=-1)
        v = self.value(x)
        return wei @ v


torch.manual_seed(3)
head = Head(n_embd=128, head_size=64)
x = torch.randn(4, 8, 128)
out = head(x)
print("out:", out.shape)
