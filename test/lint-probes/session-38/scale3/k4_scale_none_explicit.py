import torch.nn.functional as F


def attend(q, k, v, scale=None):
    # q, k, v: (B, H, T, D); scale None: the kernel's 1/sqrt(D)
    return F.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=True)


def block(x, qkv_proj, heads):
    B, T, C = x.shape
    q, k, v = qkv_proj(x).view(B, T, 3, heads, C // heads).permute(2, 0, 3, 1, 4)
    return attend(q, k, v)
