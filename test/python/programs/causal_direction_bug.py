import math
import torch
import torch.nn.functional as F

torch.manual_seed(0)
T, d = 6, 16
q, k, v = torch.randn(3, 2, T, d).unbind(0)
future = torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=-1)  # True = a key in the past
scores = q @ k.transpose(-2, -1) / math.sqrt(d)
scores = scores.masked_fill(future, float("-inf"))  # expect: ATT002
out = F.softmax(scores, dim=-1) @ v
print(out.shape)
