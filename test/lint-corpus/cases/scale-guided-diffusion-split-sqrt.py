# case: scale-guided-diffusion-split-sqrt
# modelled-on: openai/guided-diffusion https://github.com/openai/guided-diffusion/issues/38
# label: correct
# pattern: QKVAttention in channel-first layout (B*H, C, T): scale = 1 / sqrt(sqrt(ch)) applied to both q and k inside einsum("bct,bcs->bts"); softmax in float32 over the last axis s
# why: the two fourth-root factors multiply to 1/sqrt(ch) (more stable in fp16 than dividing afterwards); "bct,bcs->bts" contracts the channel axis, so no explicit key transpose is needed
# looks-like: ATT003, ATT004, ATT005
import math

import torch as th
import torch.nn as nn


class QKVAttentionLegacy(nn.Module):
    """qkv: (N, H * 3 * C, T) from a 1x1 conv, channels first."""

    def __init__(self, n_heads: int):
        super().__init__()
        self.n_heads = n_heads

    def forward(self, qkv: th.Tensor) -> th.Tensor:
        bs, width, length = qkv.shape
        assert width % (3 * self.n_heads) == 0
        ch = width // (3 * self.n_heads)
        q, k, v = qkv.reshape(bs * self.n_heads, ch * 3, length).split(ch, dim=1)  # each (B*H, C, T)
        scale = 1 / math.sqrt(math.sqrt(ch))
        weight = th.einsum("bct,bcs->bts", q * scale, k * scale)  # (B*H, T, S)
        weight = th.softmax(weight.float(), dim=-1).type(weight.dtype)
        a = th.einsum("bts,bcs->bct", weight, v)
        return a.reshape(bs, -1, length)


class AttentionBlock(nn.Module):
    def __init__(self, channels: int, num_heads: int = 1):
        super().__init__()
        self.norm = nn.GroupNorm(32, channels)
        self.qkv = nn.Conv1d(channels, channels * 3, 1)
        self.attention = QKVAttentionLegacy(num_heads)
        self.proj_out = nn.Conv1d(channels, channels, 1)

    def forward(self, x: th.Tensor) -> th.Tensor:
        b, c, *spatial = x.shape
        x = x.reshape(b, c, -1)  # (B, C, H*W)
        h = self.attention(self.qkv(self.norm(x)))
        return (x + self.proj_out(h)).reshape(b, c, *spatial)
