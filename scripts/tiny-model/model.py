"""A tiny GPT-2 in PyTorch with HF GPT2Model's parameter names and layouts, so the extension's GPT-2 loader
(src/models/gpt2.ts) reads its weights as it reads any GPT-2 checkpoint:

  wte.weight [V, E], wpe.weight [P, E], h.{i}.ln_1 / ln_2 (weight, bias [E]),
  h.{i}.attn.c_attn (Conv1D: weight [E, 3E] = [in, out], bias [3E]), h.{i}.attn.c_proj ([E, E], [E]),
  h.{i}.mlp.c_fc ([E, inner], [inner]), h.{i}.mlp.c_proj ([inner, E], [E]), ln_f; lm_head tied to wte.

Attention is written out (softmax(q·kᵀ/√hd + causal)) so the probabilities can be returned for the reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class TinyConfig:
    vocab_size: int
    n_positions: int
    n_embd: int
    n_layer: int
    n_head: int
    layer_norm_epsilon: float = 1e-5

    @property
    def n_inner(self) -> int:
        return 4 * self.n_embd

    def hf_config(self) -> dict:
        """config.json as HF GPT2Config writes it (the fields the extension reads, and model_type)."""
        return {
            "architectures": ["GPT2LMHeadModel"],
            "model_type": "gpt2",
            "vocab_size": self.vocab_size,
            "n_positions": self.n_positions,
            "n_ctx": self.n_positions,
            "n_embd": self.n_embd,
            "n_layer": self.n_layer,
            "n_head": self.n_head,
            "n_inner": None,
            "activation_function": "gelu_new",
            "layer_norm_epsilon": self.layer_norm_epsilon,
            "scale_attn_weights": True,
            "scale_attn_by_inverse_layer_idx": False,
            "tie_word_embeddings": True,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attn_pdrop": 0.0,
            "bos_token_id": self.vocab_size - 1,
            "eos_token_id": self.vocab_size - 1,
        }


class Conv1D(nn.Module):
    """HF's Conv1D: y = x·W + b with W stored [in, out]."""

    def __init__(self, n_in: int, n_out: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight).reshape(*x.shape[:-1], -1)


class Attention(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.n_head = c.n_head
        self.c_attn = Conv1D(c.n_embd, 3 * c.n_embd)
        self.c_proj = Conv1D(c.n_embd, c.n_embd)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        B, T, E = x.shape
        hd = E // self.n_head
        q, k, v = self.c_attn(x).split(E, dim=2)  # (B, T, E) each
        q, k, v = (t.view(B, T, self.n_head, hd).transpose(1, 2) for t in (q, k, v))  # (B, H, T, hd)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)  # (B, H, T, T)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        probs = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)  # (B, H, T, T)
        out = (probs @ v).transpose(1, 2).reshape(B, T, E)  # (B, T, E)
        return self.c_proj(out), probs


class Mlp(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.c_fc = Conv1D(c.n_embd, c.n_inner)
        self.c_proj = Conv1D(c.n_inner, c.n_embd)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)
        self.attn = Attention(c)
        self.ln_2 = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)
        self.mlp = Mlp(c)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        a, probs = self.attn(self.ln_1(x))
        x = x + a
        return x + self.mlp(self.ln_2(x)), probs


class TinyGpt2(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        self.config = c
        self.wte = nn.Embedding(c.vocab_size, c.n_embd)
        self.wpe = nn.Embedding(c.n_positions, c.n_embd)
        self.h = nn.ModuleList(Block(c) for _ in range(c.n_layer))
        self.ln_f = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)

    def init_weights(self, generator: torch.Generator) -> None:
        """Fan-in initialisation: a projection with n inputs draws N(0, 1/n), residual projections also divided
        by √(2L) (as GPT-2 does); embeddings N(0, 0.05²); LayerNorm 1 and 0. GPT-2's fixed std 0.02 suits
        width 768; at width 64 it shrinks every head's output so much that attention barely learns in a short run.
        """
        for name, p in self.named_parameters():
            if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
                nn.init.ones_(p)
            elif name.endswith(".bias"):
                nn.init.zeros_(p)
            else:
                if name in ("wte.weight", "wpe.weight"):
                    std = 0.05
                else:
                    std = 1 / math.sqrt(p.shape[0])  # Conv1D weights are [in, out]
                    if name.endswith("c_proj.weight"):
                        std /= math.sqrt(2 * self.config.n_layer)
                with torch.no_grad():
                    p.copy_(torch.randn(p.shape, generator=generator) * std)

    def forward(self, ids: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """ids (B, T) → logits (B, T, V) and per layer the attention probabilities (B, H, T, T)."""
        T = ids.shape[1]
        x = self.wte(ids) + self.wpe(torch.arange(T))  # (B, T, E)
        attentions = []
        for block in self.h:
            x, probs = block(x)
            attentions.append(probs)
        logits = self.ln_f(x) @ self.wte.weight.T  # (B, T, V)
        return logits, attentions

    def named_tensors(self) -> dict[str, torch.Tensor]:
        """The checkpoint's tensors under HF GPT2Model names (lm_head is tied, so not stored)."""
        return {name: p.detach().contiguous() for name, p in self.named_parameters()}
