# case: b46-01-clean
# modelled-on: DrDrewCain/MiniMacLLM https://github.com/DrDrewCain/MiniMacLLM/commit/fc846e729957f634df6002fb6fa6188a97a9431f
# label: correct
# class: clean
# pattern: a small decoder LM (a folder: the grouped-query attention module with its key/value cache and the helper that builds a square additive causal bias, and the model that builds the bias, adds a padding bias and runs the layers): the bias is triu(ones, 1) turned into -inf where it is 1; with a (batch, seq) padding mask of 1 for real tokens the model adds (1 - mask) * finfo.min to it; the attention adds the bias to q @ k^T * 1/sqrt(head_dim) and takes the softmax in float32; cached keys are concatenated on dim 2 and kv heads are expanded for the query groups
# why: correct: masked_fill(mask == 1, -inf) on the upper triangle turns the future into -inf and leaves 0 elsewhere, and (1 - keep) * finfo.min puts the large negative value only on padded keys (keep = 1 for real tokens); the sum of the two never leaves a query row without a finite key (the diagonal is a real token or at worst only finfo.min); the scale is 1/sqrt of the per-head size; the square bias only meets cached keys for a single new token, where it is a 1x1 zero that broadcasts over all cached keys
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/DrDrewCain/MiniMacLLM https://github.com/DrDrewCain/MiniMacLLM/commit/fc846e729957f634df6002fb6fa6188a97a9431f src/model/llm.py
from dataclasses import dataclass
from typing import List, Optional

import torch
from torch import nn

from gqa import GroupedAttention, LayerKV, square_future_bias


@dataclass
class LMConfig:
    vocab: int = 32000
    width: int = 512
    depth: int = 8
    q_heads: int = 8
    kv_heads: int = 2
    max_len: int = 1024
    p_drop: float = 0.0


class Layer(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.n1 = nn.RMSNorm(cfg.width)
        self.attn = GroupedAttention(cfg.width, cfg.q_heads, cfg.kv_heads, cfg.p_drop)
        self.n2 = nn.RMSNorm(cfg.width)
        self.ff = nn.Sequential(nn.Linear(cfg.width, 4 * cfg.width), nn.SiLU(), nn.Linear(4 * cfg.width, cfg.width))

    def forward(self, x, bias, past=None, keep=False):
        a, present = self.attn(self.n1(x), bias=bias, past=past, keep=keep)
        x = x + a
        return x + self.ff(self.n2(x)), present


class TinyLM(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab, cfg.width)
        self.layers = nn.ModuleList(Layer(cfg) for _ in range(cfg.depth))
        self.norm = nn.RMSNorm(cfg.width)
        self.head = nn.Linear(cfg.width, cfg.vocab, bias=False)

    def forward(
        self,
        ids: torch.Tensor,
        pad_mask: Optional[torch.Tensor] = None,  # (B, T): 1 = real token, 0 = padding
        past: Optional[List[LayerKV]] = None,
        keep: bool = False,
    ):
        b, t = ids.shape
        if t > self.cfg.max_len:
            raise ValueError(f"sequence of {t} tokens is longer than {self.cfg.max_len}")
        x = self.tok(ids)

        bias = square_future_bias(t, ids.device)
        if pad_mask is not None:
            key_bias = pad_mask[:, None, None, :].to(x.dtype)
            key_bias = (1.0 - key_bias) * torch.finfo(x.dtype).min
            bias = bias + key_bias

        presents = [] if keep else None
        for i, layer in enumerate(self.layers):
            x, present = layer(x, bias, past[i] if past is not None else None, keep)
            if keep:
                presents.append(present)
        return self.head(self.norm(x)), presents
