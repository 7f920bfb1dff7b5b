# case: b51-03-clean
# modelled-on: cosmicgenius/tinystories https://github.com/cosmicgenius/tinystories/commit/392defeea2f506334fa064773a72f91609619604
# label: correct
# class: clean
# pattern: a norm-free (ReZero) story GPT with sigmoid self-attention (a folder: the dataclass holding the context length, head count and width, whose head width is a property; the model, whose attention adds a learned per-head bias initialised to -log(context) to scores divided by sqrt(head width), takes an element-wise sigmoid, and multiplies the weights by a 0/1 lower-triangular buffer afterwards, also using the buffer as a boolean to pick the causal scores for an auxiliary range penalty)
# why: correct: sigmoid attention (the paper the docstring cites) weighs each key independently and never normalises a row, so zeroing the future weights after the sigmoid is exactly the causal mask, with nothing to renormalise; there is no softmax whose axis or masking could be wrong; the 0/1 buffer is tril(ones) (1 = may attend), used as a multiplier and, cast to bool, as a keep-selector; the scale is sqrt of the per-head width from the config
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/cosmicgenius/tinystories https://github.com/cosmicgenius/tinystories/commit/392defeea2f506334fa064773a72f91609619604 gpt.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from settings import ArchConfig


def worst_excursion(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """Square of the largest step outside [low, high] on either side."""
    under = (low - x).clamp(min=0.0).max()
    over = (x - high).clamp(min=0.0).max()
    return under ** 2 + over ** 2


class SigmoidSelfAttention(nn.Module):
    """Causal attention whose weights are sigmoid(q.k / sqrt(d) + b), one independent gate per pair."""

    def __init__(self, cfg: ArchConfig) -> None:
        super().__init__()
        self.heads = cfg.heads
        self.head_width = cfg.head_width
        self.cfg = cfg
        self.penalty = torch.zeros(())

        self.wq = nn.Linear(cfg.width, cfg.width)
        self.wk = nn.Linear(cfg.width, cfg.width)
        self.wv = nn.Linear(cfg.width, cfg.width)
        self.wo = nn.Linear(cfg.width, cfg.width)
        self.drop_weights = nn.Dropout(cfg.dropout)
        self.drop_out = nn.Dropout(cfg.dropout)

        # one bias per head, broadcast over (T, T)
        self.gate_bias = nn.Parameter(torch.full((cfg.heads, 1, 1), -math.log(cfg.context)))
        # 1 on and below the diagonal: the pairs a position may look at
        self.register_buffer("lower", torch.tril(torch.ones(cfg.context, cfg.context)))

    def _split(self, t: torch.Tensor, b: int, n: int) -> torch.Tensor:
        return t.view(b, n, self.heads, self.head_width).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, c = x.shape
        q = self._split(self.wq(x), b, n)
        k = self._split(self.wk(x), b, n)
        v = self._split(self.wv(x), b, n)

        raw = torch.matmul(q, k.transpose(-2, -1)) / self.head_width ** 0.5
        raw = raw + self.gate_bias
        window = self.lower[:n, :n]

        if self.cfg.logit_penalty > 0.0:
            seen = raw.masked_select(window.bool())
            self.penalty = worst_excursion(seen, self.cfg.logit_low, self.cfg.logit_high)
        else:
            self.penalty = raw.new_zeros(())

        gates = torch.sigmoid(raw)
        gates = self.drop_weights(gates * window)

        mixed = torch.matmul(gates, v).transpose(1, 2).contiguous().view(b, n, c)
        return self.drop_out(self.wo(mixed))


class ReZeroBlock(nn.Module):
    def __init__(self, cfg: ArchConfig) -> None:
        super().__init__()
        self.attn = SigmoidSelfAttention(cfg)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.width, cfg.mlp_width), nn.GELU(), nn.Linear(cfg.mlp_width, cfg.width), nn.Dropout(cfg.dropout)
        )
        self.alpha_attn = nn.Parameter(torch.zeros(()))
        self.alpha_mlp = nn.Parameter(torch.zeros(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.alpha_attn * self.attn(x)
        return x + self.alpha_mlp * self.mlp(x)


class StoryGPT(nn.Module):
    def __init__(self, cfg: ArchConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.tokens = nn.Embedding(cfg.vocab_size, cfg.width)
        self.positions = nn.Embedding(cfg.context, cfg.width)
        self.drop = nn.Dropout(cfg.dropout)
        self.blocks = nn.ModuleList(ReZeroBlock(cfg) for _ in range(cfg.depth))
        self.lm_head = nn.Linear(cfg.width, cfg.vocab_size, bias=False)
        self.lm_head.weight = self.tokens.weight

    def forward(self, ids: torch.Tensor, targets: torch.Tensor | None = None):
        n = ids.shape[1]
        x = self.drop(self.tokens(ids) + self.positions(torch.arange(n, device=ids.device)))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(x)
        if targets is None:
            return logits, None, None
        ce = F.cross_entropy(logits.view(-1, self.cfg.vocab_size), targets.view(-1))
        aux = torch.stack([blk.attn.penalty for blk in self.blocks]).mean() * self.cfg.logit_penalty
        return logits, ce, aux
