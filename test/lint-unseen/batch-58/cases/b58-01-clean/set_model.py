# case: b58-01-clean
# modelled-on: yukikotani231/chord-set-transformer https://github.com/yukikotani231/chord-set-transformer/commit/3140b6294db47c2ffcd48be5caa7ed2ba2e79da8
# label: correct
# class: clean
# pattern: a Set Transformer that names chords from a set of sounding notes (a folder: the batching function pads the note sets and returns a boolean `present` mask, True for a real note; the model's multi-head attention fills the scores with -inf where `~mask` holds, for the set self-attention blocks and for the pooling block whose learned seed queries attend over the padded notes)
# why: correct: the mask comes from the batching function with True = a real note, so `~mask` selects exactly the padded keys and only those get -inf; every set holds at least one note, so no row of keys is fully masked; padded query rows of the self-attention blocks still see the real notes and are dropped by the pooling, whose seeds attend only to real notes; the scale is sqrt of the per-head width
# looks-like: ATT002, ATT007
# source: https://github.com/yukikotani231/chord-set-transformer https://github.com/yukikotani231/chord-set-transformer/commit/3140b6294db47c2ffcd48be5caa7ed2ba2e79da8 src/models/modules.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
from torch.utils.data import DataLoader, Dataset

from batching import pad_note_sets


class HeadedAttention(nn.Module):
    def __init__(self, width: int, n_heads: int, p_drop: float = 0.0):
        super().__init__()
        assert width % n_heads == 0
        self.width = width
        self.n_heads = n_heads
        self.head_width = width // n_heads
        self.to_q = nn.Linear(width, width)
        self.to_k = nn.Linear(width, width)
        self.to_v = nn.Linear(width, width)
        self.to_out = nn.Linear(width, width)
        self.drop = nn.Dropout(p_drop)

    def _heads(self, t: Tensor) -> Tensor:
        b, n, _ = t.shape
        return t.view(b, n, self.n_heads, self.head_width).transpose(1, 2)

    def forward(self, q_in: Tensor, kv_in: Tensor, mask: Tensor | None = None) -> Tensor:
        q = self._heads(self.to_q(q_in))
        k = self._heads(self.to_k(kv_in))
        v = self._heads(self.to_v(kv_in))

        logits = q @ k.transpose(-2, -1) / math.sqrt(self.head_width)
        if mask is not None:
            if mask.dim() == 2:
                mask = mask[:, None, None, :]
            logits = logits.masked_fill(~mask, float("-inf"))

        weights = self.drop(F.softmax(logits, dim=-1))
        mixed = (weights @ v).transpose(1, 2).reshape(q_in.size(0), -1, self.width)
        return self.to_out(mixed)


class AttendBlock(nn.Module):
    """LayerNorm(H + FF(H)) with H = LayerNorm(X + Attn(X, Y))."""

    def __init__(self, width: int, n_heads: int, p_drop: float = 0.0):
        super().__init__()
        self.attn = HeadedAttention(width, n_heads, p_drop)
        self.ln_a = nn.LayerNorm(width)
        self.ln_b = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Dropout(p_drop), nn.Linear(4 * width, width))

    def forward(self, x: Tensor, y: Tensor, mask: Tensor | None = None) -> Tensor:
        h = self.ln_a(x + self.attn(x, y, mask))
        return self.ln_b(h + self.ff(h))


class SeedPooling(nn.Module):
    def __init__(self, width: int, n_heads: int, n_seeds: int = 1, p_drop: float = 0.0):
        super().__init__()
        self.seeds = nn.Parameter(torch.randn(1, n_seeds, width))
        self.block = AttendBlock(width, n_heads, p_drop)

    def forward(self, x: Tensor, mask: Tensor | None = None) -> Tensor:
        return self.block(self.seeds.expand(x.size(0), -1, -1), x, mask)


class ChordNamer(nn.Module):
    def __init__(self, n_feat: int, n_chords: int, width: int = 64, n_heads: int = 4, depth: int = 2):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(n_feat, width), nn.GELU())
        self.blocks = nn.ModuleList(AttendBlock(width, n_heads) for _ in range(depth))
        self.pool = SeedPooling(width, n_heads)
        self.head = nn.Linear(width, n_chords)

    def forward(self, notes: Tensor, present: Tensor | None = None) -> Tensor:
        h = self.embed(notes)
        for block in self.blocks:
            h = block(h, h, present)
        return self.head(self.pool(h, present).squeeze(1))


def train_epoch(model: ChordNamer, data: Dataset, opt: torch.optim.Optimizer) -> None:
    for batch in DataLoader(data, batch_size=32, shuffle=True, collate_fn=pad_note_sets):
        logits = model(batch["notes"], batch["present"])
        loss = F.cross_entropy(logits, batch["targets"])
        opt.zero_grad()
        loss.backward()
        opt.step()
