# case: b9-16-clean
# modelled-on: MattiaSarti/transformer-from-scratch https://github.com/MattiaSarti/transformer-from-scratch/commit/6c28a33a01089f15c37d187c010030bfd98886fd
# label: correct
# class: clean
# pattern: an annotated encoder-decoder transformer rewritten with long comments: the attention module builds a tril "allowed positions" mask (True = may attend) that the data module combines with a padding mask (tokens != pad), scaled dot-product attention fills the scores with -1e9 where mask == 0 and softmaxes over the last axis, and multi-head attention views the projections as (B, -1, heads, d_k) and transposes heads forward, unsqueezing the mask for the head axis
# why: correct: both masks are keep masks (True = allowed) and masked_fill hides mask == 0, i.e. padding and the future; every row keeps at least its own position; scores are divided by sqrt(queries.size(-1)), the per-head width after the split; keys.transpose(-2, -1) swaps the last two axes of the 4-D keys
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/MattiaSarti/transformer-from-scratch https://github.com/MattiaSarti/transformer-from-scratch/commit/6c28a33a01089f15c37d187c010030bfd98886fd transformer/architecture/attention.py
from copy import deepcopy
from math import sqrt
from typing import Optional

from numpy import ones as np_ones, tril
from torch import Tensor, from_numpy, matmul
from torch.nn import Dropout, Linear, Module, ModuleList
from torch.nn.functional import softmax


def allowed_positions_to_attend(n_positions: int) -> Tensor:
    """Masks of the source positions each target position may attend (True = allowed)."""
    masks = tril(np_ones((1, n_positions, n_positions)), k=0).astype("bool")
    return from_numpy(masks)


def scaled_dot_product_attention(queries: Tensor, keys: Tensor, values: Tensor, mask: Optional[Tensor] = None, dropout_layer: Optional[Module] = None):
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V, with dropout right after the softmax."""
    scores = matmul(queries, keys.transpose(dim0=-2, dim1=-1)) / sqrt(queries.size(-1))
    if mask is not None:
        # positions under the mask lose their weight after the softmax
        scores = scores.masked_fill(mask=(mask == 0), value=-1e9)
    weights = softmax(scores, dim=-1)
    if dropout_layer is not None:
        weights = dropout_layer(weights)
    return matmul(weights, values), weights


class MultiHeadAttention(Module):
    def __init__(self, n_attention_heads: int, token_representation_dimension: int, dropout_prob: float) -> None:
        assert token_representation_dimension % n_attention_heads == 0
        super().__init__()
        self.d_k = token_representation_dimension // n_attention_heads
        self.n_attention_heads = n_attention_heads
        layer = Linear(token_representation_dimension, token_representation_dimension)
        self.projection_layers = ModuleList([deepcopy(layer) for _ in range(4)])
        self.dropout_layer = Dropout(p=dropout_prob)
        self.normalized_attention_weights = None

    def forward(self, query_tokens: Tensor, key_or_value_tokens: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        n = query_tokens.size(0)
        if mask is not None:
            mask = mask.unsqueeze(dim=1)  # same mask for every head
        queries, keys, values = [
            layer(x).view(n, -1, self.n_attention_heads, self.d_k).transpose(dim0=1, dim1=2)
            for layer, x in zip(self.projection_layers, (query_tokens, key_or_value_tokens, key_or_value_tokens))
        ]
        features, self.normalized_attention_weights = scaled_dot_product_attention(queries, keys, values, mask, self.dropout_layer)
        features = features.transpose(dim0=1, dim1=2).contiguous().view(n, -1, self.n_attention_heads * self.d_k)
        return self.projection_layers[-1](features)
