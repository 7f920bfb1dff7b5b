# case: b24-01-clean
# modelled-on: woodywarhol9/BERT4Rec-pytorch https://github.com/woodywarhol9/BERT4Rec-pytorch/commit/971ad7108c1177926fc6c46398cc1b6adac27209
# label: correct
# class: clean
# pattern: a BERT4Rec encoder for item sequences: the model builds a keep mask from the item ids, (seq > 0).unsqueeze(1).unsqueeze(1) of shape (B, 1, 1, L), and hands it through every encoder layer to a multi-head attention that divides the scores by a self.scale = math.sqrt(head_dim) set in __init__, multiplies by key.permute(0, 1, 3, 2), fills mask == 0 with -1e9 and takes the softmax over dim=-1
# why: correct: item id 0 is the padding id, so seq > 0 is True on real items and masked_fill(mask == 0) blocks exactly the padded keys; the (B, 1, 1, L) mask broadcasts over heads and queries; permute(0, 1, 3, 2) is the key transpose of a (B, H, L, d) tensor, and self.scale holds sqrt(head_dim), so dividing by it is the 1/sqrt(d_k) scale; the model runs in float32, where -1e9 is safe
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/woodywarhol9/BERT4Rec-pytorch https://github.com/woodywarhol9/BERT4Rec-pytorch/commit/971ad7108c1177926fc6c46398cc1b6adac27209 model/bert.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class ItemSelfAttention(nn.Module):
    def __init__(self, n_heads: int, width: int, p_drop: float = 0.1):
        super().__init__()
        assert width % n_heads == 0, "width must split evenly over the heads"
        self.width = width
        self.n_heads = n_heads
        self.head_dim = width // n_heads
        self.to_q = nn.Linear(width, width)
        self.to_k = nn.Linear(width, width)
        self.to_v = nn.Linear(width, width)
        self.scale = math.sqrt(self.head_dim)
        self.drop = nn.Dropout(p_drop)
        self.out = nn.Linear(width, width)

    def forward(self, q_in, k_in, v_in, mask: Optional[torch.Tensor] = None):
        bsz = q_in.size(0)
        # [bsz, len, width] -> [bsz, heads, len, head_dim]
        q = self.to_q(q_in).view(bsz, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        k = self.to_k(k_in).view(bsz, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.to_v(v_in).view(bsz, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)

        # [bsz, heads, q_len, k_len]
        logits = torch.matmul(q, k.permute(0, 1, 3, 2)) / self.scale
        if mask is not None:
            logits = logits.masked_fill(mask == 0, -1e9)
        weights = F.softmax(logits, dim=-1)
        weights = self.drop(weights)

        ctx = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(bsz, -1, self.width)
        return self.out(ctx), weights


class EncoderLayer(nn.Module):
    def __init__(self, width: int, n_heads: int, ff_width: int, p_drop: float = 0.1):
        super().__init__()
        self.attn = ItemSelfAttention(n_heads, width, p_drop)
        self.norm1 = nn.LayerNorm(width, eps=1e-6)
        self.norm2 = nn.LayerNorm(width, eps=1e-6)
        self.ff = nn.Sequential(nn.Linear(width, ff_width), nn.GELU(), nn.Dropout(p_drop), nn.Linear(ff_width, width))
        self.drop = nn.Dropout(p_drop)

    def forward(self, seq, mask):
        attended, _ = self.attn(seq, seq, seq, mask=mask)
        seq = seq + self.drop(self.norm1(attended))
        return seq + self.drop(self.norm2(self.ff(seq)))


class ItemBERT(nn.Module):
    def __init__(self, n_items: int, max_len: int, width: int = 64, n_heads: int = 2, n_layers: int = 2):
        super().__init__()
        # id 0 is padding, n_items + 1 is the [MASK] token
        self.item_emb = nn.Embedding(n_items + 2, width, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, width)
        self.layers = nn.ModuleList([EncoderLayer(width, n_heads, 4 * width) for _ in range(n_layers)])
        self.head = nn.Linear(width, n_items + 1)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        # [bsz, len] -> [bsz, 1, 1, len], broadcast over heads and queries
        mask = (seq > 0).unsqueeze(1).unsqueeze(1)
        pos = torch.arange(seq.size(1), device=seq.device).unsqueeze(0)
        hidden = self.item_emb(seq) + self.pos_emb(pos)
        for layer in self.layers:
            hidden = layer(hidden, mask)
        return self.head(hidden)
