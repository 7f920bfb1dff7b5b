from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import GQAttention


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm1 = nn.RMSNorm(cfg.hidden)
        self.attn = GQAttention(cfg.hidden, cfg.heads, cfg.kv_heads, cfg.dropout)
        self.norm2 = nn.RMSNorm(cfg.hidden)
        self.ff = nn.Sequential(nn.Linear(cfg.hidden, 4 * cfg.hidden), nn.SiLU(), nn.Linear(4 * cfg.hidden, cfg.hidden))

    def forward(self, h, attention_mask=None):
        h = h + self.attn(self.norm1(h), attention_mask=attention_mask)
        return h + self.ff(self.norm2(h))


class TinyCoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.hidden)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.layers)])
        self.norm = nn.RMSNorm(cfg.hidden)
        self.head = nn.Linear(cfg.hidden, cfg.vocab, bias=False)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        labels: Optional[torch.Tensor] = None,
    ):
        """attention_mask: [batch, seq], 1 for real tokens and 0 for padding; labels: -100 where no loss is taken."""
        h = self.embed(input_ids)
        for block in self.blocks:
            h = block(h, attention_mask=attention_mask)
        logits = self.head(self.norm(h))
        loss = None if labels is None else F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
        return logits, loss
