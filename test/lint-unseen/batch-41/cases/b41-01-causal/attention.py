import math

import torch
import torch.nn.functional as F


def explicit_attention(q_bhsd, k_bhld, v_bhld, causal=False):
    """Reference path: scores, optional causal mask, softmax, weighted sum."""
    n_q_heads, n_kv_heads = q_bhsd.shape[1], k_bhld.shape[1]
    rep = n_q_heads // n_kv_heads
    k_all = k_bhld.repeat_interleave(rep, dim=1)
    v_all = v_bhld.repeat_interleave(rep, dim=1)
    logits = torch.einsum("bhsd,bhld->bhsl", q_bhsd, k_all) / math.sqrt(q_bhsd.shape[-1])
    if causal:
        ahead = torch.triu(torch.ones_like(logits, dtype=torch.bool), diagonal=1)
        logits = logits.masked_fill(ahead, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    mixed = torch.einsum("bhsl,bhld->bhsd", probs, v_all)
    b, h, s, d = mixed.shape
    return mixed.transpose(1, 2).reshape(b, s, h * d)


def fused_attention(q_bhsd, k_bhld, v_bhld, causal=False):
    """Same computation through PyTorch's fused kernel (grouped heads handled by SDPA)."""
    b, h, s, _ = q_bhsd.shape
    mixed = F.scaled_dot_product_attention(
        q_bhsd,
        k_bhld,
        v_bhld,
        is_causal=causal,  # expect: ATT008
        enable_gqa=h != k_bhld.shape[1],
    )
    return mixed.transpose(1, 2).reshape(b, s, -1)


if __name__ == "__main__":
    q = torch.randn(2, 8, 16, 32)
    k = torch.randn(2, 2, 16, 32)
    v = torch.randn(2, 2, 16, 32)
    for flag in (False, True):
        torch.testing.assert_close(explicit_attention(q, k, v, flag), fused_attention(q, k, v, flag))
    print("explicit and fused paths agree")
