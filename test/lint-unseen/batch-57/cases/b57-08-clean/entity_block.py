from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class SetConfig:
    width: int = 64
    heads: int = 4
    layers: int = 2
    ff_width: int = 128

    def check(self) -> None:
        if self.width % self.heads:
            raise ValueError("width must be divisible by heads")


class SetAttentionBlock(nn.Module):
    """Pre-LN self-attention over an unordered set of game entities (no positions)."""

    def __init__(self, cfg: SetConfig):
        super().__init__()
        self.heads, self.width = cfg.heads, cfg.width
        self.ln_attn, self.ln_ff = nn.LayerNorm(cfg.width), nn.LayerNorm(cfg.width)
        self.qkv = nn.Linear(cfg.width, 3 * cfg.width)
        self.out = nn.Linear(cfg.width, cfg.width)
        self.ff = nn.Sequential(nn.Linear(cfg.width, cfg.ff_width), nn.GELU(), nn.Linear(cfg.ff_width, cfg.width))

    def forward(self, x: torch.Tensor, present: torch.Tensor) -> torch.Tensor:
        b, n, w = x.shape
        d = w // self.heads
        q, k, v = self.qkv(self.ln_attn(x)).reshape(b, n, 3, self.heads, d).permute(2, 0, 3, 1, 4).unbind(0)
        logits = q @ k.transpose(-1, -2) / d ** 0.5
        logits = logits.masked_fill(~present[:, None, None, :], -torch.inf)
        mixed = (logits.softmax(-1) @ v).transpose(1, 2).reshape(b, n, w)
        x = x + self.out(mixed)
        x = x + self.ff(self.ln_ff(x))
        return x.masked_fill(~present[..., None], 0)
