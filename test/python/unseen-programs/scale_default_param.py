# label: buggy
# why: the default scale is 1/d (head dim 32) and no caller passes one
# tags: parameter-default
import torch
import torch.nn as nn

HEAD_DIM = 32


def attend(q, k, v, scale=1 / HEAD_DIM):
    scores = (q @ k.transpose(-1, -2)) * scale  # expect: ATT004
    probs = scores.softmax(-1)
    return probs @ v


class Block(nn.Module):
    def __init__(self, dim=128, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # each [B, heads, N, head_dim]
        out = attend(q, k, v)
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


if __name__ == "__main__":
    torch.manual_seed(5)
    block = Block()
    tokens = torch.randn(2, 17, 128)
    with torch.no_grad():
        print(block(tokens).shape)
