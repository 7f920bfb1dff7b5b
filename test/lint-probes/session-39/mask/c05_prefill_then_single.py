import torch
import torch.nn.functional as F


class KV:
    def __init__(self):
        self.k = None
        self.v = None


def attend(q, k, v, kv: KV):
    # q, k, v: (B, H, T, D)
    if kv.k is None:
        kv.k, kv.v = k, v
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)  # prompt: no cache yet
    kv.k = torch.cat([kv.k, k], dim=2)
    kv.v = torch.cat([kv.v, v], dim=2)
    return F.scaled_dot_product_attention(q, kv.k, kv.v)  # one new query sees everything cached
