# case: b20-02-clean
# modelled-on: mth9406/Bert4Rec https://github.com/mth9406/Bert4Rec/commit/e1e1aa64090b98eebbe498d71bb5a106e979e8b2
# label: correct
# class: clean
# pattern: a BERT4Rec re-implementation with einops: a mask helper builds a float keep mask, 1.0 on real items and 0.0 on padding, shaped (bs, 1, 1, len) for the padding option, or tril(ones) times the repeated padding mask for the look-ahead option; the attention rearranges the keys straight to (bs, heads, head_dim, len) and computes Q @ K_T / sqrt(head_dim), fills torch.masked_fill(A, mask == 0, -1e+4) and softmaxes over the last axis; the model (models.py) asks for the padding mask
# why: correct: the mask is a keep mask and mask == 0 selects the padding keys; einops already puts head_dim before len for the keys, so Q @ K_T is the (len, len) score matrix; -1e4 is a large enough negative in float32 (no half precision anywhere), and the model is bidirectional, so the padding option is the right one
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/mth9406/Bert4Rec https://github.com/mth9406/Bert4Rec/commit/e1e1aa64090b98eebbe498d71bb5a106e979e8b2 layers.py
import math

import torch
import torch.nn as nn
from einops import rearrange, repeat


def build_mask(items, option: str) -> torch.Tensor:
    """items: (bs, item_len) ids, 0 is padding."""
    if option == "padding":
        zeros = torch.full_like(items, fill_value=0)
        mask = (items != zeros).float()  # 1 for real items, 0 for padding
        mask = rearrange(mask, "bs item_len -> bs 1 1 item_len")
    elif option == "lookahead":
        pad = build_mask(items, "padding")
        pad = repeat(pad, "bs 1 1 item_len -> bs 1 new item_len", new=pad.shape[3])
        mask = torch.tril(torch.ones_like(pad))
        mask = mask * pad
    else:
        raise ValueError(option)
    return mask


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, hidden_dim=512, num_head=8, dropout=0.1):
        super().__init__()
        self.num_head = num_head
        self.head_dim = hidden_dim // num_head
        self.to_q = nn.Linear(hidden_dim, hidden_dim)
        self.to_k = nn.Linear(hidden_dim, hidden_dim)
        self.to_v = nn.Linear(hidden_dim, hidden_dim)
        self.fc_out = nn.Linear(hidden_dim, hidden_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src_q, src_k, src_v, mask=None):
        Q, K, V = self.to_q(src_q), self.to_k(src_k), self.to_v(src_v)
        Q = rearrange(Q, "bs len (h d) -> bs h len d", h=self.num_head)
        K_T = rearrange(K, "bs len (h d) -> bs h d len", h=self.num_head)
        V = rearrange(V, "bs len (h d) -> bs h len d", h=self.num_head)

        A = Q @ K_T / math.sqrt(self.head_dim)
        if mask is not None:
            # padding: (bs, 1, 1, len); lookahead: (bs, 1, len, len)
            A = torch.masked_fill(A, (mask == 0), -1e4)
        A = torch.softmax(A, dim=-1)
        out = self.dropout(A) @ V
        out = rearrange(out, "bs h len d -> bs len (h d)")
        return self.fc_out(out)


class FeedForward(nn.Module):
    def __init__(self, hidden_dim=512, inner_dim=2048, dropout=0.1):
        super().__init__()
        self.fc1 = nn.Linear(hidden_dim, inner_dim)
        self.fc2 = nn.Linear(inner_dim, hidden_dim)
        self.act = nn.GELU()
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.fc2(self.dropout(self.act(self.fc1(x))))
