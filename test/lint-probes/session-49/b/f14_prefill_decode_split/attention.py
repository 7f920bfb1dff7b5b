import torch.nn.functional as F


def attend(q, k, v, causal):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
