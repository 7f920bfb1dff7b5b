# case: t33z-04-clean
# modelled-on: latkins/trifast https://github.com/latkins/trifast/commit/2900764567ce482990cd098b8d98d2029f0006b3
# label: correct
# class: clean
# pattern: the pure-PyTorch references that a fused Triton triangle-attention kernel (AlphaFold-style pair representation, (..., heads, n, n, d)) is tested against: (1) q is multiplied by d ** -0.5 first, the scores come from an einops einsum "... h i j d, ... h i k d -> ... h i j k", a pair bias rearranged to (..., h, 1, n, n) is added, and the boolean mask (True = masked, rearranged to (..., 1, n, 1, n)) fills the biased scores in place with torch.finfo(dtype).min before a softmax over the last axis; (2) the keys are rearranged to "... () i h d j" (already transposed) so the scores are torch.matmul(q, k) * d ** -0.5, and the mask enters as an additive bias finfo.min * mask.to(dtype), added together with the pair bias before the softmax over dim=-1
# why: correct: both references compute softmax(q k^T / sqrt(d) + bias) over the key axis k with masked keys removed; the key transpose is done by the rearrange pattern (d before j), so matmul(q, k) needs no .transpose; the mask is True where a key is to be hidden in both forms, matching the kernel; finfo(dtype).min is representable in every dtype (in the additive form a float16 masked logit can round on to -inf when the score added to it is below -16, which still hides the key; the in-place fill form gives a fully masked row uniform finite weights)
# looks-like: ATT002, ATT003, ATT005, ATT006, ATT007
# source: https://github.com/latkins/trifast https://github.com/latkins/trifast/commit/2900764567ce482990cd098b8d98d2029f0006b3 src/trifast/equiv.py
import torch
from einops import einsum, rearrange


def most_negative(dtype) -> float:
    return torch.finfo(dtype).min


def triangle_attention_einsum(q, k, v, pair_bias, mask):
    """q, k, v: (..., h, n, n, d); pair_bias: (..., h, n, n); mask: (..., n, n) bool, True = masked."""
    q = q * (q.shape[-1] ** -0.5)

    logits = einsum(q, k, "... h i j d, ... h i k d -> ... h i j k")
    logits = logits + rearrange(pair_bias, "... h n m -> ... h () n m")
    # fills the biased logits in place
    logits.masked_fill_(rearrange(mask, "... n m -> ... () n () m"), most_negative(q.dtype))
    weights = torch.softmax(logits, dim=-1)

    return einsum(weights, v, "... h i j k, ... h i k d -> ... h i j d")


def triangle_attention_matmul(q, k, v, pair_bias, mask):
    """Same computation with the heads moved next to the keys and an additive mask."""
    mask_bias = most_negative(q.dtype) * mask.to(q.dtype)
    scale = q.shape[-1] ** -0.5

    q = rearrange(q, "... h i j d -> ... () i h j d")
    k = rearrange(k, "... h i j d -> ... () i h d j")
    v = rearrange(v, "... h i j d -> ... () i h j d")
    pair_bias = rearrange(pair_bias, "... h i j -> ... () () h i j")
    mask_bias = rearrange(mask_bias, "... i j -> ... i () () j")

    logits = torch.matmul(q, k) * scale
    logits += mask_bias
    logits += pair_bias

    weights = torch.softmax(logits, dim=-1)
    out = torch.matmul(weights, v)
    return rearrange(out, "... () i h j d -> ... h i j d")


def max_abs_difference(q, k, v, pair_bias, mask):
    a = triangle_attention_einsum(q, k, v, pair_bias, mask)
    b = triangle_attention_matmul(q, k, v, pair_bias, mask)
    return (a - b).abs().max()
