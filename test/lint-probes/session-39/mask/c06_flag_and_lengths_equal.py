import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d, h, causal=True):
        super().__init__()
        self.h, self.causal = h, causal
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, cache=None):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], 2)
            v = torch.cat([cache[1], v], 2)
        is_causal = self.causal and k.size(-2) == q.size(-2)
        mask = None
        if self.causal and not is_causal:
            S = k.size(-2)
            mask = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal)
        return out.transpose(1, 2).reshape(B, T, d), (k, v)
