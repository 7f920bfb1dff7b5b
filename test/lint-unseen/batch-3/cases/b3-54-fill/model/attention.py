# case: b3-54-fill
# modelled-on: ruisp666/transformer-from-scratch https://github.com/ruisp666/transformer-from-scratch/commit/512907627e7e2f866f8f0d6e5dd2bac20674ef29
# label: correct
# class: fixed
# pattern: a Llama-style decoder block (model/decoder.py) slices a boolean tril buffer (True = visible) and hands it to a RoPE multi-head attention (model/rope_attention.py), which calls this module's scaled_dot_attention; the scores are q k^T * d ** -0.5 and masked with masked_fill(mask == 0, value) before a softmax over the keys
# why: after commit 5129076 the hidden keys are filled with float('-inf'), as the decoder's comment asks, so they get zero weight; the boolean tril mask keeps the diagonal, so no row is all -inf and no NaN appears
# looks-like: ATT002, ATT007
# source: https://github.com/ruisp666/transformer-from-scratch https://github.com/ruisp666/transformer-from-scratch/commit/512907627e7e2f866f8f0d6e5dd2bac20674ef29 src/transformer_from_scratch/multi_head_attention.py
import torch
import torch.nn.functional as F


def scaled_dot_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask=None):
    """softmax(q k^T / sqrt(d_k)) v.

    q: (..., len_q, d_k), k: (..., len_k, d_k), v: (..., len_k, d_v); leading axes are (batch, heads).
    mask: (len_q, len_k) or (batch, len_q, len_k); positions with False / 0 are masked out.
    """
    d = q.shape[-1]
    scores = torch.matmul(q, k.transpose(-2, -1)) * d ** (-1 / 2)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, v), weights
