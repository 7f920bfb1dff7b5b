import torch


def two_maps(q1, k1, q2, k2, causal):
    """Two causal softmax maps of the same sequence; the caller combines them."""
    d = q1.shape[-1]
    s1 = (q1 @ k1.transpose(-1, -2)) / d ** 0.5
    s2 = (q2 @ k2.transpose(-1, -2)) / d ** 0.5
    s1 = s1.masked_fill(~causal, float("-inf"))
    s2 = s2.masked_fill(~causal, float("-inf"))
    return s1.softmax(-1), s2.softmax(-1)
