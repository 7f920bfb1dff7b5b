# case: scale-xcit-cross-covariance
# modelled-on: facebookresearch/xcit https://github.com/facebookresearch/xcit/blob/main/xcit.py
# label: correct
# pattern: XCiT's cross-covariance attention transposes q, k, v to (B, H, C/H, N) and computes q @ k^T over tokens, giving a channel-by-channel map scaled by a learned temperature after L2 normalisation
# why: XCA deliberately attends over feature channels; the transposes of q and v are part of that layout, not a wrong key transpose, and the temperature is the intended scale
# looks-like: ATT003, ATT005
import torch
import torch.nn as nn


class XCA(nn.Module):
    def __init__(self, dim: int, num_heads: int = 8, qkv_bias: bool = False, attn_drop: float = 0.0, proj_drop: float = 0.0):
        super().__init__()
        self.num_heads = num_heads
        self.temperature = nn.Parameter(torch.ones(num_heads, 1, 1))
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads)
        qkv = qkv.permute(2, 0, 3, 1, 4)  # (3, B, H, N, C/H)
        q, k, v = qkv[0], qkv[1], qkv[2]

        q = q.transpose(-2, -1)  # (B, H, C/H, N)
        k = k.transpose(-2, -1)
        v = v.transpose(-2, -1)

        q = torch.nn.functional.normalize(q, dim=-1)
        k = torch.nn.functional.normalize(k, dim=-1)

        attn = (q @ k.transpose(-2, -1)) * self.temperature  # (B, H, C/H, C/H)
        attn = attn.softmax(dim=-1)
        attn = self.attn_drop(attn)

        x = (attn @ v).permute(0, 3, 1, 2).reshape(B, N, C)
        return self.proj_drop(self.proj(x))
