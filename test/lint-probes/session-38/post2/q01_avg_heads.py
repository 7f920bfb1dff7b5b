import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MHA(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, need_weights=True):
        bsz, tgt_len, E = x.shape
        q, k, v = self.in_proj(x).view(bsz, tgt_len, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        w = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.head_dim), dim=-1)
        out = self.out_proj((w @ v).transpose(1, 2).reshape(bsz, tgt_len, E))
        if need_weights:
            # average the attention weights over the heads for the caller
            return out, w.sum(dim=1) / self.num_heads
        return out, None
