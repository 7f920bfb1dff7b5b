"""The one attention routine every module in this package calls.

It works on the last two axes and broadcasts over whatever leads them, so the same code serves a single head
(leading axes (B,)) and several heads (leading axes (B, H)).
"""

import math

import torch


def attend(q, k, v, causal=False):
    """Attention over the keys for each query.

    q: (..., Lq, dk); k: (..., Lk, dk); v: (..., Lk, dv).
    causal: forbid key j for query i when j > i. Meant for self-attention, where Lq == Lk.
    Returns the mixed values (..., Lq, dv) and the weights (..., Lq, Lk).
    """
    width = q.shape[-1]

    # every query against every key; only the last two axes swap
    logits = torch.matmul(q, k.transpose(-1, -2))

    # keep the logits' spread independent of the head width
    logits = logits / math.sqrt(width)

    if causal:
        n_q, n_k = logits.shape[-2], logits.shape[-1]
        allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=logits.device).tril()
        logits = logits.masked_fill(allowed.logical_not(), float("-inf"))

    # one distribution over the keys per query row
    weights = logits.softmax(dim=-1)
    return torch.matmul(weights, v), weights
