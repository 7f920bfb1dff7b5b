import torch
import torch.nn.functional as F


def attention(q, k, v, past_kv=None):
    # q, k, v: (B, H, T, D)
    if past_kv is not None:
        pk, pv = past_kv
        k = torch.cat((pk, k), dim=-2)
        v = torch.cat((pv, v), dim=-2)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=past_kv is None)
    return y, (k, v)


@torch.no_grad()
def generate(model_step, q0, k0, v0, steps, next_qkv):
    y, cache = attention(q0, k0, v0)
    for _ in range(steps):
        q, k, v = next_qkv(y[:, :, -1:])  # one new token
        y, cache = attention(q, k, v, cache)
    return y
