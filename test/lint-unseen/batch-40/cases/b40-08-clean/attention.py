# case: b40-08-clean
# modelled-on: C-J8/slm-pretraining-entrega1 https://github.com/C-J8/slm-pretraining-entrega1/commit/8a3bdc25c51c6bf3a00156f10c9a25c6e3f53939
# label: correct
# class: clean
# pattern: causal self-attention of a small Llama-style model whose sizes come from a config dataclass in another file (a folder): head_dim defaults in __post_init__ to n_embd // n_head, grouped-query keys and values are repeated along the head axis while still (B, T, heads, d), a (1, 1, block, block) lower-triangular buffer is sliced to the sequence, scores q k^T / sqrt(head_dim) are filled with the dtype's minimum where the buffer is 0 and normalised in float32 over the keys
# why: correct: the scale is the per-head width read from the config (validated against n_embd), the triangle keeps the diagonal and is sliced top-left on a cache-free training forward where queries and keys have the same length, the fill is finite for any dtype, and the softmax runs over the last axis, the keys
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/C-J8/slm-pretraining-entrega1 https://github.com/C-J8/slm-pretraining-entrega1/commit/8a3bdc25c51c6bf3a00156f10c9a25c6e3f53939 src/attention.py
import math

import torch
from torch import nn

from config import SmallLlamaConfig


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg: SmallLlamaConfig):
        super().__init__()
        self.n_head, self.n_kv_head, self.head_dim = cfg.n_head, cfg.n_kv_head, cfg.head_dim
        self.q_proj = nn.Linear(cfg.n_embd, cfg.n_head * cfg.head_dim, bias=cfg.bias)
        self.k_proj = nn.Linear(cfg.n_embd, cfg.n_kv_head * cfg.head_dim, bias=cfg.bias)
        self.v_proj = nn.Linear(cfg.n_embd, cfg.n_kv_head * cfg.head_dim, bias=cfg.bias)
        self.o_proj = nn.Linear(cfg.n_head * cfg.head_dim, cfg.n_embd, bias=cfg.bias)
        self.drop_weights, self.drop_out = nn.Dropout(cfg.dropout), nn.Dropout(cfg.dropout)
        tri = torch.tril(torch.ones(cfg.context, cfg.context))
        self.register_buffer("tri", tri.view(1, 1, cfg.context, cfg.context), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bsz, seq, _ = x.shape
        q = self.q_proj(x).reshape(bsz, seq, self.n_head, self.head_dim)
        k = self.k_proj(x).reshape(bsz, seq, self.n_kv_head, self.head_dim)
        v = self.v_proj(x).reshape(bsz, seq, self.n_kv_head, self.head_dim)
        if self.n_kv_head != self.n_head:
            # still (B, T, heads, d): axis 2 is the head axis here
            k = k.repeat_interleave(self.n_head // self.n_kv_head, dim=2)
            v = v.repeat_interleave(self.n_head // self.n_kv_head, dim=2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))

        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        visible = self.tri[:, :, :seq, :seq]
        att = att.masked_fill(visible == 0, torch.finfo(att.dtype).min)
        att = torch.softmax(att.float(), dim=-1).type_as(q)
        mixed = (self.drop_weights(att) @ v).transpose(1, 2).reshape(bsz, seq, -1)
        return self.drop_out(self.o_proj(mixed))
