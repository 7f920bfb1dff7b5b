# case: t27t-02-clean
# modelled-on: k3rnel-pan1c-a/sasrec https://github.com/k3rnel-pan1c-a/sasrec/commit/51dac15bd96a977ff09be402798704f38c82852a
# label: correct
# class: clean
# pattern: SASRec on session clicks: the dataset module left-pads every session with PAD_ID = 0 (newest click in the last slot); the model passes nn.MultiheadAttention(batch_first=True) attn_mask=triu(ones(L, L, bool), diagonal=1) and key_padding_mask=seq == PAD_ID, with need_weights=False; next-item scores set the padding item's column to -inf before the top-k
# why: correct: nn.MultiheadAttention reads both boolean masks as True = may not attend, and triu(diagonal=1) is True on future keys while seq == PAD_ID is True on padding keys, so both have the receiver's polarity; with left padding and the causal mask a padding query has no key left (its row is fully masked), which need_weights=False sends through scaled_dot_product_attention, whose math path returns zeros for such rows in current PyTorch (the training log of the original is finite), and those positions are excluded from the loss; the -inf on scores[:, PAD_ID] is on output logits, not attention scores
# looks-like: ATT002, ATT007
# source: https://github.com/k3rnel-pan1c-a/sasrec https://github.com/k3rnel-pan1c-a/sasrec/commit/51dac15bd96a977ff09be402798704f38c82852a src/model.py
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from sessrec.dataset import PAD_ID


class PointWiseFeedForward(nn.Module):
    def __init__(self, hidden: int, dropout: float):
        super().__init__()
        self.fc1 = nn.Conv1d(hidden, hidden, 1)
        self.fc2 = nn.Conv1d(hidden, hidden, 1)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.transpose(1, 2)  # (B, D, L)
        h = self.drop(self.fc2(self.drop(F.relu(self.fc1(h)))))
        return h.transpose(1, 2)


class SASRecBlock(nn.Module):
    def __init__(self, hidden: int, n_heads: int, dropout: float):
        super().__init__()
        self.attn = nn.MultiheadAttention(hidden, n_heads, dropout=dropout, batch_first=True)
        self.ln_attn = nn.LayerNorm(hidden)
        self.ff = PointWiseFeedForward(hidden, dropout)
        self.ln_ff = nn.LayerNorm(hidden)

    def forward(self, x, causal_mask, key_padding_mask):
        h = self.ln_attn(x)
        out, _ = self.attn(h, h, h, attn_mask=causal_mask, key_padding_mask=key_padding_mask, need_weights=False)
        x = x + out
        return x + self.ff(self.ln_ff(x))


class SASRec(nn.Module):
    def __init__(self, n_items: int, hidden: int = 64, n_blocks: int = 2, n_heads: int = 1,
                 max_seq_len: int = 50, dropout: float = 0.2):
        super().__init__()
        self.hidden = hidden
        self.item_emb = nn.Embedding(n_items + 1, hidden, padding_idx=PAD_ID)
        self.pos_emb = nn.Embedding(max_seq_len, hidden)
        self.emb_drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([SASRecBlock(hidden, n_heads, dropout) for _ in range(n_blocks)])
        self.ln_out = nn.LayerNorm(hidden)

    def encode(self, seq: torch.Tensor) -> torch.Tensor:
        B, L = seq.shape
        pos = torch.arange(L, device=seq.device).unsqueeze(0).expand(B, L)
        x = self.item_emb(seq) * math.sqrt(self.hidden) + self.pos_emb(pos)
        x = self.emb_drop(x)
        # True blocks: a key after the query, or a padding key
        causal = torch.triu(torch.ones(L, L, dtype=torch.bool, device=seq.device), diagonal=1)
        kpm = seq == PAD_ID  # (B, L)
        for block in self.blocks:
            x = block(x, causal_mask=causal, key_padding_mask=kpm)
        return self.ln_out(x)  # (B, L, D)

    def forward(self, seq, pos, neg):
        h = self.encode(seq)
        pos_logits = (h * self.item_emb(pos)).sum(-1)
        neg_logits = (h * self.item_emb(neg)).sum(-1)
        valid = seq != PAD_ID  # padding positions carry no loss
        return pos_logits, neg_logits, valid

    @torch.no_grad()
    def predict_next(self, seq: torch.Tensor) -> torch.Tensor:
        h = self.encode(seq)[:, -1, :]          # (B, D): the newest click
        scores = h @ self.item_emb.weight.T     # (B, n_items + 1)
        scores[:, PAD_ID] = float("-inf")       # never recommend the padding item
        return scores


def bce_loss(pos_logits, neg_logits, valid):
    loss = F.binary_cross_entropy_with_logits(pos_logits, torch.ones_like(pos_logits), reduction="none")
    loss = loss + F.binary_cross_entropy_with_logits(neg_logits, torch.zeros_like(neg_logits), reduction="none")
    return (loss * valid).sum() / valid.sum()
