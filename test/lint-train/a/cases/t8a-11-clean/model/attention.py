# case: t8a-11-clean
# modelled-on: Emxy-Yang-2236/MiniLLM https://github.com/Emxy-Yang-2236/MiniLLM/commit/72420e6af1bf35ec163f231223c25add4a5f5ffa
# label: correct
# class: clean
# pattern: a course LM with two attention backends: a naive one that computes scores with einops.einsum("... query d_k, ... key d_k -> ... query key"), divides by d_k ** 0.5 and fills masked_fill(~mask, -inf) before a hand-written softmax from another module, given a tril boolean mask (True = may attend); and an SDPA backend called with is_causal=True on the full sequence
# why: correct: the mask is True on and below the diagonal and the fill goes where it is False (~mask), the documented convention of the function; the einsum contracts the head width, so no key transpose is needed; is_causal=True runs on training sequences with T_q == T_k and no cache
# looks-like: ATT002, ATT005, ATT008
# source: https://github.com/Emxy-Yang-2236/MiniLLM https://github.com/Emxy-Yang-2236/MiniLLM/commit/72420e6af1bf35ec163f231223c25add4a5f5ffa release/minillm/model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import einsum, rearrange

from model.layers import softmax


def naive_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v). False entries of `mask` are blocked before softmax."""
    scores = einsum(Q, K, "... query d_k, ... key d_k -> ... query key")
    scores = scores / (Q.shape[-1] ** 0.5)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return softmax(scores, dim=-1) @ V


def fused_causal_attention(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, backend: str = "naive"):
        super().__init__()
        self.num_heads = num_heads
        self.backend = backend
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        heads = lambda t: rearrange(t, "b s (h d) -> b h s d", h=self.num_heads)
        q, k, v = heads(self.q_proj(x)), heads(self.k_proj(x)), heads(self.v_proj(x))
        seq = x.shape[-2]
        if self.backend == "naive":
            keep = torch.tril(torch.ones(seq, seq, device=x.device, dtype=torch.bool))
            y = naive_attention(q, k, v, mask=keep)
        else:
            y = fused_causal_attention(q, k, v)
        return self.out(rearrange(y, "b h s d -> b s (h d)"))
