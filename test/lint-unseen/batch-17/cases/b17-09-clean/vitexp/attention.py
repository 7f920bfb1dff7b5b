# case: b17-09-clean
# modelled-on: NishantPrabhu/Self-Attention-and-Convolutions https://github.com/NishantPrabhu/Self-Attention-and-Convolutions/commit/57f8244c64fc32c81a0dcd94f89c1a96102450d9
# label: correct
# class: clean
# pattern: a ViT experiment whose sizes come from a config module: each head gets the full model width (query / key / value are Linear(model_dim, model_dim * heads), viewed as (bs, n, heads, model_dim) and permuted to (bs, heads, n, model_dim)); scores are einsum('bhid,bhjd->bhij') divided by sqrt(model_dim), softmaxed over the last axis and dropped out; in hierarchical mode a layer may reuse the keys returned by the previous layer
# why: correct: the per-head key width is model_dim (the projections are model_dim * heads wide), so sqrt(model_dim) is the per-head scale, not the model width of a split-heads layout; the einsum contracts the feature axis of q and k (no transpose needed); the softmax runs over j, the keys; reused keys have the same (bs, heads, n, model_dim) layout
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/NishantPrabhu/Self-Attention-and-Convolutions https://github.com/NishantPrabhu/Self-Attention-and-Convolutions/commit/57f8244c64fc32c81a0dcd94f89c1a96102450d9 ViT/models/networks.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class FullWidthHeadsAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.heads = config["num_heads"]
        self.model_dim = config["model_dim"]
        self.pre_norm = config.get("pre_norm", True)
        self.hierarchical = config.get("hierarchical", False)
        self.query = nn.Linear(self.model_dim, self.model_dim * self.heads, bias=False)
        self.key = nn.Linear(self.model_dim, self.model_dim * self.heads, bias=False)
        self.value = nn.Linear(self.model_dim, self.model_dim * self.heads, bias=False)
        self.out = nn.Linear(self.model_dim * self.heads, self.model_dim, bias=True)
        self.norm = nn.LayerNorm(self.model_dim)
        self.dropout = nn.Dropout(config["attention_dropout_prob"])

    def forward(self, x, k=None):
        bs, n, _ = x.size()
        if self.pre_norm:
            x = self.norm(x)
        q = self.query(x).view(bs, n, self.heads, self.model_dim).permute(0, 2, 1, 3)
        v = self.value(x).view(bs, n, self.heads, self.model_dim).permute(0, 2, 1, 3)
        if k is None:
            k = self.key(x).view(bs, n, self.heads, self.model_dim).permute(0, 2, 1, 3)

        scores = torch.einsum("bhid,bhjd->bhij", [q, k])
        scores = scores / math.sqrt(self.model_dim)
        probs = self.dropout(F.softmax(scores, dim=-1))
        context = torch.einsum("bhij,bhjd->bhid", [probs, v])
        context = context.permute(0, 2, 1, 3).contiguous().view(bs, n, -1)

        out = self.out(context) + x
        if not self.pre_norm:
            out = self.norm(out)
        return out, probs, (k if self.hierarchical else None)
