# case: b51-07-clean
# modelled-on: cosmicgenius/tinystories https://github.com/cosmicgenius/tinystories/commit/392defeea2f506334fa064773a72f91609619604
# label: correct
# class: clean
# pattern: the distillation teacher of a small story model (a folder: the teacher, a pre-norm RMSNorm / SwiGLU decoder whose attention rotates queries and keys with complex-number RoPE and calls F.scaled_dot_product_attention(q, k, v, is_causal=True) with no mask and no explicit scale, and whose sampler re-runs the cropped context each step with no cache; and the distillation step, which divides student and teacher vocabulary logits by a temperature T before log_softmax / softmax over the last axis and multiplies the KL by T * T)
# why: correct: SDPA applies the default 1/sqrt(head_dim) itself, so no explicit scale is missing; is_causal=True meets equal query and key lengths on every call, since the sampler feeds the whole cropped context each time and no keys are cached; no attn_mask is passed with it; the temperature divides vocabulary logits in a distillation loss (Hinton et al.'s T, undone by the T * T factor), not attention scores, and both softmaxes run over the vocabulary axis
# looks-like: ATT003, ATT004, ATT008
# source: https://github.com/cosmicgenius/tinystories https://github.com/cosmicgenius/tinystories/commit/392defeea2f506334fa064773a72f91609619604 gpt_teacher.py
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TeacherSettings:
    vocab_size: int = 16384
    context: int = 256
    depth: int = 12
    heads: int = 8
    width: int = 512
    dropout: float = 0.1

    @property
    def head_width(self) -> int:
        assert self.width % self.heads == 0
        return self.width // self.heads

    @property
    def hidden(self) -> int:
        return ((int(8 / 3 * self.width) + 63) // 64) * 64


def rope_table(head_width: int, length: int, base: float = 10000.0) -> torch.Tensor:
    inv = 1.0 / base ** (torch.arange(0, head_width, 2).float() / head_width)
    angles = torch.outer(torch.arange(length).float(), inv)
    return torch.polar(torch.ones_like(angles), angles)  # (length, head_width // 2), complex


def rotate(x: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    b, h, n, d = x.shape
    pairs = torch.view_as_complex(x.float().reshape(b, h, n, d // 2, 2))
    turned = pairs * table[:n][None, None]
    return torch.view_as_real(turned).reshape(b, h, n, d).to(x.dtype)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps, self.gain = eps, nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        inv = x.float().pow(2).mean(-1, keepdim=True).add(self.eps).rsqrt()
        return (x.float() * inv).to(x.dtype) * self.gain


class RopeAttention(nn.Module):
    def __init__(self, cfg: TeacherSettings) -> None:
        super().__init__()
        self.heads, self.head_width = cfg.heads, cfg.head_width
        self.fused = nn.Linear(cfg.width, 3 * cfg.width, bias=False)
        self.merge = nn.Linear(cfg.width, cfg.width, bias=False)
        self.drop = nn.Dropout(cfg.dropout)
        self.register_buffer("table", rope_table(cfg.head_width, cfg.context), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, c = x.shape
        q, k, v = (t.view(b, n, self.heads, self.head_width).transpose(1, 2) for t in self.fused(x).split(c, dim=-1))
        q, k = rotate(q, self.table), rotate(k, self.table)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=self.drop.p if self.training else 0.0)
        return self.drop(self.merge(y.transpose(1, 2).reshape(b, n, c)))


class TeacherBlock(nn.Module):
    def __init__(self, cfg: TeacherSettings) -> None:
        super().__init__()
        self.norm_a, self.norm_f = RMSNorm(cfg.width), RMSNorm(cfg.width)
        self.attn = RopeAttention(cfg)
        self.gate = nn.Linear(cfg.width, cfg.hidden, bias=False)
        self.up = nn.Linear(cfg.width, cfg.hidden, bias=False)
        self.down = nn.Linear(cfg.hidden, cfg.width, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm_a(x))
        h = self.norm_f(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Teacher(nn.Module):
    def __init__(self, cfg: TeacherSettings) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.width)
        self.blocks = nn.ModuleList(TeacherBlock(cfg) for _ in range(cfg.depth))
        self.norm = RMSNorm(cfg.width)
        self.lm_head = nn.Linear(cfg.width, cfg.vocab_size, bias=False)
        self.lm_head.weight = self.embed.weight

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.embed(ids)
        for block in self.blocks:
            h = block(h)
        return self.lm_head(self.norm(h))

    @torch.no_grad()
    def sample(self, ids: torch.Tensor, max_new: int, temperature: float = 1.0) -> torch.Tensor:
        for _ in range(max_new):
            logits = self(ids[:, -self.cfg.context :])
            nxt = torch.multinomial(F.softmax(logits[:, -1] / temperature, dim=-1), 1)
            ids = torch.cat([ids, nxt], dim=1)
        return ids
