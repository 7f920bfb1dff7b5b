import torch
from modules import Layer

layer = Layer(256, 4).half().cuda()
x = torch.randn(2, 50, 256, dtype=torch.float16, device="cuda")
pad = torch.zeros(2, 50, dtype=torch.bool, device="cuda")
pad[0, 40:] = True
y = layer(x, pad)
