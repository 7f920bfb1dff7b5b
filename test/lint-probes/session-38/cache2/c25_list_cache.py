import torch
import torch.nn as nn
import torch.nn.functional as F


class ListCacheAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.k_list, self.v_list = [], []

    def reset(self):
        self.k_list, self.v_list = [], []

    def forward(self, x, use_cache=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if use_cache:
            self.k_list.append(k)
            self.v_list.append(v)
            k = torch.cat(self.k_list, dim=2)
            v = torch.cat(self.v_list, dim=2)
        S = k.shape[2]
        mask = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(diagonal=S - T)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask).transpose(1, 2).reshape(B, T, C)
