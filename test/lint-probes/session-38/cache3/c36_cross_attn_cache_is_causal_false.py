import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.self_qkv = nn.Linear(d, 3 * d)
        self.cross_q = nn.Linear(d, d)
        self.cross_kv = nn.Linear(d, 2 * d)

    def forward(self, x, enc, cache):
        B, T, C = x.shape
        q, k, v = self.self_qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if "self" in cache:
            k = torch.cat([cache["self"][0], k], dim=2)
            v = torch.cat([cache["self"][1], v], dim=2)
        cache["self"] = (k, v)
        S = k.shape[2]
        keep = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T)
        x = x + F.scaled_dot_product_attention(q, k, v, attn_mask=keep).transpose(1, 2).reshape(B, T, C)
        cq = self.cross_q(x).view(B, T, self.h, -1).transpose(1, 2)
        if "cross" not in cache:
            cache["cross"] = self.cross_kv(enc).view(B, -1, 2, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        ck, cv = cache["cross"]
        return x + F.scaled_dot_product_attention(cq, ck, cv, is_causal=False).transpose(1, 2).reshape(B, T, C)
