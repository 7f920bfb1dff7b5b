# case: b54-06-clean
# modelled-on: giorgioroffo/infinite-self-attention https://github.com/giorgioroffo/infinite-self-attention/commit/4a37fc02bb2d323462e696e3118df25043d839be
# label: correct
# class: clean
# pattern: a drop-in replacement for nn.MultiheadAttention that computes "infinite self-attention" without a softmax (a folder: the functional module whose single-hop map is rho * Frobenius-normalised ReLU(Q K^T / d), q and k each multiplied by sqrt(1 / d), with a linear-time pooled variant, and the module that projects to (B, H, N, D), reads rho through a sigmoid of a learnable logit and accepts key_padding_mask, attn_mask and is_causal only so that it has nn.MultiheadAttention's signature, documenting that they are not used)
# why: correct: the method divides the dot products by d on purpose (its docstring and the paper define A = rho * Norm(ReLU(QK^T / d))) and normalises by the Frobenius norm instead of a softmax, so there is no 1/sqrt(d) to miss and no softmax axis; the mask and is_causal arguments are documented as accepted for API compatibility and unused, for the bidirectional vision and language encoders the module replaces
# looks-like: ATT002, ATT003, ATT004, ATT008
# source: https://github.com/giorgioroffo/infinite-self-attention https://github.com/giorgioroffo/infinite-self-attention/commit/4a37fc02bb2d323462e696e3118df25043d839be infsa/attention.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
from torch import Tensor

from spectral_scores import infinite_attention, pooled_importance, single_hop_map


class InfiniteMultiheadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, variant: str = "single_hop",
                 dropout: float = 0.0, batch_first: bool = True, rho_init: float = 0.95):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.h = num_heads
        self.d = embed_dim // num_heads
        self.variant = variant
        self.dropout = dropout
        self.batch_first = batch_first
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.rho_logit = nn.Parameter(torch.tensor(math.log(rho_init / (1.0 - rho_init))))

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Optional[Tensor] = None,  # accepted for nn.MultiheadAttention compatibility, unused
        need_weights: bool = False,
        attn_mask: Optional[Tensor] = None,  # unused, see above
        average_attn_weights: bool = True,
        is_causal: bool = False,  # unused, see above
    ) -> Tuple[Tensor, Optional[Tensor]]:
        if not self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        b, n, _ = query.shape
        s = key.shape[1]
        q = self.q_proj(query).view(b, n, self.h, self.d).transpose(1, 2)
        k = self.k_proj(key).view(b, s, self.h, self.d).transpose(1, 2)
        v = self.v_proj(value).view(b, s, self.h, self.d).transpose(1, 2)

        rho = torch.sigmoid(self.rho_logit).item()
        out = infinite_attention(q, k, v, self.variant, rho, self.dropout, self.training)
        out = self.out_proj(out.transpose(1, 2).reshape(b, n, self.h * self.d))
        if not self.batch_first:
            out = out.transpose(0, 1)

        weights = None
        if need_weights:
            weights = single_hop_map(q, k, rho) if self.variant == "single_hop" else pooled_importance(q, k, rho)
            if average_attn_weights:
                weights = weights.mean(dim=1)
        return out, weights
