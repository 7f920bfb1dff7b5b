# case: b53-02-scale
# modelled-on: Chellil14/music-transformer-autoencoder https://github.com/Chellil14/music-transformer-autoencoder/commit/a8c0a05d4d41abb7f6703c7fde54a68cb76df07f
# label: buggy
# class: real-bug
# pattern: multi-head attention of a music-transformer autoencoder whose query/key width (qk_width) may differ from the model width (a folder: the attention module, which turns a 0/1 "may attend" matrix into an additive 0 / -1e9 bias and scales the logits by width // heads; the decoder layers that build banded lower-triangular 0/1 matrices; and the training setup that builds the model with width 384, qk_width 512 and 8 heads)
# why: buggy: the module splits the queries and keys into heads of qk_width // heads = 64 features but multiplies their dot products by (width // heads) ** -0.5 = 48 ** -0.5, so with the training configuration the logits are scaled by 1/sqrt(48) instead of 1/sqrt(d_k) = 1/sqrt(64); the module names the factor the per-head width, initialises the query projection with (qk_width // heads) as t2t does for its key depth per head, and the Music Transformer paper it implements uses the per-head key depth. No commit fixes it; the label rests on the module's own names and initialisation and the paper. The masks are right (1 = allowed, 0 / -1e9 added in float32, softmax over the key axis)
# source: https://github.com/Chellil14/music-transformer-autoencoder https://github.com/Chellil14/music-transformer-autoencoder/commit/a8c0a05d4d41abb7f6703c7fde54a68cb76df07f layers/attention.py
from typing import Optional

import einops
import torch
import torch.nn.functional as F
from torch import nn


def allowed_to_bias(allowed: torch.Tensor) -> torch.Tensor:
    # 1 -> 0, 0 -> -1e9
    return (allowed - 1) * 1e9


class HeadedAttention(nn.Module):
    def __init__(self, n_heads: int, width: int, p_drop: float, bias: bool, qk_width: Optional[int] = None, v_width: Optional[int] = None):
        super().__init__()
        qk_width = width if qk_width is None else qk_width
        v_width = width if v_width is None else v_width
        assert qk_width % n_heads == 0 and v_width % n_heads == 0
        self.n_heads = n_heads
        self.per_head = width // n_heads
        self.to_q = nn.Linear(width, qk_width, bias=bias)
        self.to_k = nn.Linear(width, qk_width, bias=bias)
        self.to_v = nn.Linear(width, v_width, bias=bias)
        self.merge = nn.Linear(v_width, width)
        self.drop = nn.Dropout(p_drop)
        nn.init.normal_(self.to_q.weight, std=(width * (qk_width // n_heads)) ** -0.5)
        for lin in (self.to_k, self.to_v):
            nn.init.normal_(lin.weight, std=width ** -0.5)

    def split(self, t: torch.Tensor) -> torch.Tensor:
        return einops.rearrange(t, "b n (h d) -> b h n d", h=self.n_heads)

    def similarity(self, q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        return q @ k.transpose(-2, -1)

    def weights(self, sim: torch.Tensor, allowed: Optional[torch.Tensor]) -> torch.Tensor:
        n_q, n_k = sim.shape[-2:]
        bias = torch.zeros(n_q, n_k, device=sim.device, dtype=sim.dtype)
        if allowed is not None:
            assert tuple(allowed.shape) == (n_q, n_k)
            bias = allowed_to_bias(allowed)
        return self.drop(F.softmax(sim * self.per_head ** -0.5 + bias, dim=-1))  # expect: ATT004

    def forward(self, q_in, k_in, v_in, allowed: Optional[torch.Tensor] = None) -> torch.Tensor:
        q, k, v = self.split(self.to_q(q_in)), self.split(self.to_k(k_in)), self.split(self.to_v(v_in))
        w = self.weights(self.similarity(q, k), allowed)
        return self.merge(einops.rearrange(w @ v, "b h n d -> b n (h d)"))
