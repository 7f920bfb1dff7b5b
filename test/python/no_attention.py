# A program with softmaxes and matmuls but no attention (used by record-cli.test.ts).
import torch

torch.manual_seed(0)
x = torch.randn(4, 8) @ torch.randn(8, 3)
print(torch.softmax(x, dim=-1).sum().item())
print("a classifier, no attention")
