# case: b48-06-clean
# modelled-on: m1krot1k1/Tacotron2-New https://github.com/m1krot1k1/Tacotron2-New/commit/c16a34983a5ba3f57fef405db32b4452fec1dcf3
# label: correct
# class: clean
# pattern: a Tacotron 2 decoder step with a multi-head location-aware attention (a folder: the length-to-mask helper, this attention module and the decoder that stores `~keep_from_lengths(...)` as its mask): one query per step, keys from the encoder memory, a location term from the convolved previous and cumulative alignments, masked_fill(mask, -inf) on the padded encoder steps, softmax over the last axis, and a learned weighting of the heads normalised with a softmax over dim 0 of the per-head parameter vector
# why: correct: the helper returns True inside each sequence and the decoder inverts it before storing it, so the mask handed to masked_fill is True on padding, as Tacotron's own attention expects; every utterance has at least one encoder step, so no row is fully masked by the -inf fill; both score terms are divided by sqrt(head_dim); the dim-0 softmax runs over a 1-D vector of head weights, not over attention scores
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/m1krot1k1/Tacotron2-New https://github.com/m1krot1k1/Tacotron2-New/commit/c16a34983a5ba3f57fef405db32b4452fec1dcf3 advanced_attention_enhancement_system.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadedLocationAttention(nn.Module):
    def __init__(self, rnn_dim=1024, enc_dim=512, att_dim=128, heads=8, loc_filters=32, loc_kernel=31):
        super().__init__()
        assert att_dim % heads == 0
        self.heads, self.d = heads, att_dim // heads
        self.q = nn.Linear(rnn_dim, att_dim)
        self.k = nn.Linear(enc_dim, att_dim)
        self.v = nn.Linear(enc_dim, att_dim)
        self.loc_conv = nn.Conv1d(2, loc_filters, loc_kernel, padding=(loc_kernel - 1) // 2, bias=False)
        self.loc_proj = nn.Linear(loc_filters, att_dim, bias=False)
        self.head_logits = nn.Parameter(torch.ones(heads))
        self.location_weight = 0.1
        self.drop = nn.Dropout(0.1)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.d).transpose(1, 2)     # (B, H, T, d)

    def forward(self, query, memory, processed_memory, alignments_cat, mask: Optional[torch.Tensor] = None):
        q = self._split(self.q(query)[:, None, :])                   # (B, H, 1, d)
        k = self._split(self.k(memory))
        loc = self._split(self.loc_proj(self.loc_conv(alignments_cat).transpose(1, 2)))

        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d)
        scores = scores + self.location_weight * (q @ loc.transpose(-2, -1) / math.sqrt(self.d))
        if mask is not None:
            scores.masked_fill_(mask[:, None, None, :], -float("inf"))
        probs = self.drop(F.softmax(scores, dim=-1))                 # (B, H, 1, T)

        head_w = F.softmax(self.head_logits, dim=0)
        weights = (probs * head_w.view(1, -1, 1, 1)).sum(dim=1).squeeze(1)   # (B, T)
        context = torch.bmm(weights[:, None, :], memory).squeeze(1)
        return context, weights
