import torch.nn.functional as F


def softmax(x, dim=-1):
    """Softmax over `dim` (the last axis unless told otherwise)."""
    return F.softmax(x, dim=dim)


def split_heads(x, num_heads):
    # (seq, d_model) -> (num_heads, seq, d_k)
    seq, d_model = x.shape
    return x.reshape(seq, num_heads, d_model // num_heads).transpose(0, 1)
