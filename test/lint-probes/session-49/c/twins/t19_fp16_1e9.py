import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).unbind(2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        s = q @ k.transpose(-2, -1) * self.dk ** -0.5
        s = s.masked_fill(pad[:, None, None, :], -1e9)
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)


if __name__ == "__main__":
    m = Attn(64, 4).cuda().half()
    x = torch.randn(2, 10, 64, device="cuda", dtype=torch.float16)
    pad = torch.zeros(2, 10, dtype=torch.bool, device="cuda")
    pad[1, 7:] = True
    print(m(x, pad).shape)
