# case: b55-04-clean
# modelled-on: yukikotani231/floorplan-set-transformer https://github.com/yukikotani231/floorplan-set-transformer/commit/44d5bb867c14a2d5db660096e998f99d8665ee8b
# label: correct
# class: clean
# pattern: a Set Transformer over the primitives of CAD floor plans (a folder: the attention blocks, whose multi-head attention fills the scores with -inf where ~mask after broadcasting a (batch, elements) mask to (batch, 1, 1, elements), inside SAB/ISAB/PMA blocks where inducing points and seeds attend to the masked elements; the collate function that pads each batch and sets the mask True on real elements; and the training step that runs the model under CUDA autocast with that mask)
# why: correct: the collate mask is True = real element and the attention masks the keys where ~mask, so only padding is hidden; -inf is representable in fp16 under autocast and every plan has at least one element, so no row of keys is fully masked; the scores are divided by sqrt(d_k), the per-head width, and the softmax is over the last axis, the keys; the second block of ISAB attends to the inducing points, which are never padding, so it passes no mask
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/yukikotani231/floorplan-set-transformer https://github.com/yukikotani231/floorplan-set-transformer/commit/44d5bb867c14a2d5db660096e998f99d8665ee8b src/models/modules.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class MaskedMHA(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        assert d_model % num_heads == 0
        self.h = num_heads
        self.d_k = d_model // num_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def _heads(self, x: Tensor) -> Tensor:
        return x.view(x.size(0), -1, self.h, self.d_k).transpose(1, 2)

    def forward(self, x_q: Tensor, x_kv: Tensor, mask: Tensor | None = None) -> Tensor:
        q, k, v = self._heads(self.q(x_q)), self._heads(self.k(x_kv)), self._heads(self.v(x_kv))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            keep = mask[:, None, None, :]
            scores = scores.masked_fill(~keep, float("-inf"))
        probs = self.drop(F.softmax(scores, dim=-1))
        out = torch.matmul(probs, v).transpose(1, 2).contiguous()
        return self.o(out.view(x_q.size(0), -1, self.h * self.d_k))


class MAB(nn.Module):
    def __init__(self, d_model: int, num_heads: int, d_ff: int | None = None, dropout: float = 0.0) -> None:
        super().__init__()
        d_ff = d_ff or 4 * d_model
        self.attn = MaskedMHA(d_model, num_heads, dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))

    def forward(self, x: Tensor, y: Tensor, mask: Tensor | None = None) -> Tensor:
        h = self.ln1(x + self.attn(x, y, mask))
        return self.ln2(h + self.ff(h))


class ISAB(nn.Module):
    def __init__(self, d_model: int, num_heads: int, num_inducing: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.inducing = nn.Parameter(torch.empty(1, num_inducing, d_model))
        nn.init.xavier_uniform_(self.inducing)
        self.summarise = MAB(d_model, num_heads, dropout=dropout)
        self.broadcast = MAB(d_model, num_heads, dropout=dropout)

    def forward(self, x: Tensor, mask: Tensor | None = None) -> Tensor:
        summary = self.summarise(self.inducing.expand(x.size(0), -1, -1), x, mask)
        return self.broadcast(x, summary)


class PMA(nn.Module):
    def __init__(self, d_model: int, num_heads: int, num_seeds: int = 1, dropout: float = 0.0) -> None:
        super().__init__()
        self.seeds = nn.Parameter(torch.empty(1, num_seeds, d_model))
        nn.init.xavier_uniform_(self.seeds)
        self.pre = nn.Sequential(nn.Linear(d_model, d_model), nn.GELU())
        self.mab = MAB(d_model, num_heads, d_ff=d_model, dropout=dropout)

    def forward(self, x: Tensor, mask: Tensor | None = None) -> Tensor:
        return self.mab(self.seeds.expand(x.size(0), -1, -1), self.pre(x), mask)


class PlanEncoder(nn.Module):
    def __init__(self, d_in: int, d_model: int = 128, num_heads: int = 4, layers: int = 3, num_inducing: int = 64) -> None:
        super().__init__()
        self.inp = nn.Linear(d_in, d_model)
        self.blocks = nn.ModuleList([ISAB(d_model, num_heads, num_inducing) for _ in range(layers)])
        self.norm = nn.LayerNorm(d_model)
        self.pool = PMA(d_model, num_heads)

    def forward(self, x: Tensor, mask: Tensor | None = None) -> tuple[Tensor, Tensor]:
        x = self.inp(x)
        for block in self.blocks:
            x = block(x, mask)
        x = self.norm(x)
        return x, self.pool(x, mask)
