# case: b41-08-clean
# modelled-on: nishcola/tiny-llm-lab https://github.com/nishcola/tiny-llm-lab/commit/cc18a2a47f6531a002e3294d0c5e19fdcda18f6e
# label: correct
# class: clean
# pattern: small GPT for interpretability experiments (a folder: the config, the intervention set and the attention): the causal mask is a registered boolean buffer tril(ones) with True = may attend, applied as masked_fill(~mask[:, :, :T, :T], -inf) on q @ k^T / sqrt(head_dim), softmax over the last axis; an optional intervention multiplies the per-head attention outputs (softmax weights already applied to the values) by a 0/1 gate per head before the heads are merged, to switch heads off
# why: correct: the buffer is a keep mask and the ~ turns it into the positions to hide, which is what masked_fill needs; the 0/1 multiplication after the softmax acts on the heads' outputs, not on the attention weights, and zeroing a whole head's contribution is exactly the head ablation the lab is meant to perform; without a KV cache the square triangle is aligned; scale uses the head width from the config
# looks-like: ATT002, ATT004, ATT006, ATT008
# source: https://github.com/nishcola/tiny-llm-lab https://github.com/nishcola/tiny-llm-lab/commit/cc18a2a47f6531a002e3294d0c5e19fdcda18f6e src/tiny_llm_lab/model/attention.py
import math

import torch
from torch import Tensor, nn

from ablations import Ablations
from config import LabConfig


class MaskedSelfAttention(nn.Module):
    def __init__(self, cfg: LabConfig) -> None:
        super().__init__()
        self.heads, self.head_dim = cfg.num_heads, cfg.head_dim
        self.qkv = nn.Linear(cfg.embedding_dim, 3 * cfg.embedding_dim)
        self.out = nn.Linear(cfg.embedding_dim, cfg.embedding_dim)
        self.drop_attn, self.drop_out = nn.Dropout(cfg.dropout), nn.Dropout(cfg.dropout)
        lower = torch.tril(torch.ones(cfg.context_length, cfg.context_length, dtype=torch.bool))
        self.register_buffer("allowed", lower[None, None])

    def forward(self, x: Tensor, layer: int = 0, ablations: Ablations | None = None, keep_weights: bool = False):
        b, t, c = x.shape
        q, k, v = (
            part.view(b, t, self.heads, self.head_dim).transpose(1, 2) for part in self.qkv(x).chunk(3, dim=-1)
        )
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(~self.allowed[:, :, :t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        heads_out = self.drop_attn(weights) @ v
        if ablations is not None and ablations.active:
            heads_out = ablations.head_gates(layer, heads_out)
        merged = heads_out.transpose(1, 2).contiguous().view(b, t, c)
        return self.drop_out(self.out(merged)), (weights if keep_weights else None)
