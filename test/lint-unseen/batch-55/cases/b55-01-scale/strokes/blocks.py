import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange
from torch import Tensor

from .attention import FiLM, TextStrokeAttention
from .masking import text_padding_mask


def sinusoid_table(length: int, width: int, factor: float = 1.0) -> Tensor:
    pos = torch.arange(length).float()[:, None] * factor
    inv = torch.exp(torch.arange(0, width, 2).float() * (-math.log(10000.0) / width))
    table = torch.zeros(length, width)
    table[:, 0::2] = torch.sin(pos * inv)
    table[:, 1::2] = torch.cos(pos * inv)
    return table[None]


class StrokeTextBlock(nn.Module):
    def __init__(self, text_dim: int, width: int, heads: int, cond_dim: int, *, drop: float = 0.1, pos_factor: float = 1.0, channels_first: bool = True) -> None:
        super().__init__()
        self.channels_first = channels_first
        self.register_buffer("text_pos", sinusoid_table(2000, width), persistent=False)
        self.register_buffer("stroke_pos", sinusoid_table(2000, width, pos_factor), persistent=False)
        self.text_in = nn.Linear(text_dim, width)
        self.norm = nn.LayerNorm(width, eps=1e-6, elementwise_affine=False)
        self.film = nn.ModuleList([FiLM(cond_dim, width) for _ in range(4)])
        self.cross = TextStrokeAttention(width, heads)
        self.self_attn = TextStrokeAttention(width, heads)
        self.ff = nn.Sequential(nn.Linear(width, width * 2), nn.ReLU(), nn.Linear(width * 2, width))
        self.drop = nn.Dropout(drop)

    def forward(self, x: Tensor, text: Tensor, cond: Tensor, *, mask: Tensor):
        text = self.film[0](self.norm(self.text_in(F.selu(text))), cond)
        text_keys = text + self.text_pos[:, : text.size(1)]
        if self.channels_first:
            x = rearrange(x, "b c n -> b n c")

        queries = x + self.stroke_pos[:, : x.size(1)]
        h, weights = self.cross(queries, text_keys, text, mask=mask)
        h = self.film[1](self.norm(self.drop(h)), cond) + x

        h_pos = h + self.stroke_pos[:, : x.size(1)]
        h2, _ = self.self_attn(h_pos, h_pos, h)
        h2 = self.film[2](self.norm(h + self.drop(h2)), cond)

        out = self.drop(self.ff(h2)) + h2
        return self.film[3](self.norm(out), cond), weights


class Denoiser(nn.Module):
    def __init__(self, vocab: int = 73, c1: int = 128, c2: int = 192, c3: int = 256, layers: int = 2) -> None:
        super().__init__()
        self.char_embed = nn.Embedding(vocab, c2 * 2)
        self.stem = nn.Conv1d(2, c2, 3, padding=1)
        self.down_a = StrokeTextBlock(c2 * 2, c2, 3, c1 // 4, pos_factor=4)
        self.widen = nn.Linear(c2, c3)
        self.down_b = StrokeTextBlock(c2 * 2, c3, 4, c1 // 4, pos_factor=2)
        self.to_mid = nn.Linear(c3, c2 * 2)
        self.mid = nn.ModuleList(
            [StrokeTextBlock(c2 * 2, c2 * 2, 6, c1 // 4, channels_first=False) for _ in range(layers)]
        )

    def forward(self, strokes: Tensor, chars: Tensor, cond: Tensor):
        text_mask = text_padding_mask(chars)
        text = self.char_embed(chars)
        x, _ = self.down_a(self.stem(strokes), text, cond, mask=text_mask)
        x = F.avg_pool1d(rearrange(self.widen(x), "b n c -> b c n"), 2)
        x, _ = self.down_b(x, text, cond, mask=text_mask)
        x = self.to_mid(x)
        for block in self.mid:
            x, weights = block(x, text, cond, mask=text_mask)
        return x, weights
