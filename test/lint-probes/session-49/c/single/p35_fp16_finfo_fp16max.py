import torch
import torch.nn as nn

MASK_FP16 = -torch.finfo(torch.float16).max


class LocalAttention(nn.Module):
    def __init__(self, d, window):
        super().__init__()
        self.window = window
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, -1)
        T = x.shape[1]
        i = torch.arange(T, device=x.device)
        far = (i[:, None] - i[None, :]).abs() > self.window
        s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
        s = s.masked_fill(far, MASK_FP16)
        return s.softmax(-1) @ v


net = LocalAttention(64, 4).cuda().half()
