import math


def prepare_keys(k):
    # k: (B, H, S, d) -> same, divided by sqrt(d) so that q @ k^T is scaled once
    return k / math.sqrt(k.shape[-1])
