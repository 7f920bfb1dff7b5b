# case: t34aa-08-clean
# modelled-on: D-Roberts/transformer-recommender https://github.com/D-Roberts/transformer-recommender/commit/a527547e901609527e1512131abb38b4fa8ff8d8
# label: correct
# class: clean
# pattern: MXNet Gluon (a framework no other case uses): attention cells refactored from GluonNLP for Alibaba's Behaviour Sequence Transformer: the query scaled by `F.contrib.div_sqrt_dim` before `F.batch_dot(query, key, transpose_b=True)`, a masked softmax helper `F.where(mask, score, neg * F.ones_like(score))` with neg = -1e18, or -1e4 when the dtype is float16 or MXNet AMP is initialised, then `F.softmax(score, axis=-1) * mask`; the multi-head cell folds the heads into the batch with `reshape(shape=(-1, 0, 0), reverse=True)` and broadcasts the (batch, Lq, Lk) keep mask over them; leaky-ReLU on the projected q and k as the BST paper has it; the model in another module builds the cell by name
# why: correct: div_sqrt_dim divides q by sqrt of its last dimension, the per-head width after the projection and the head split, so the scale is 1/sqrt(d_head) and is applied once; the mask is 1 = keep, the convention of `where(mask, score, neg)`; -1e18 only reaches float32 scores (float16 and AMP take -1e4, which fits); multiplying the weights by the same mask after the softmax zeroes only entries the softmax already made 0, except in fully masked rows, which it zeroes instead of leaving uniform; batch_dot with transpose_b=True is q k^T over the last axis
# looks-like: ATT002, ATT003, ATT005, ATT006, ATT007
# source: https://github.com/D-Roberts/transformer-recommender https://github.com/D-Roberts/transformer-recommender/commit/a527547e901609527e1512131abb38b4fa8ff8d8 bst_alibaba_rec/transformer_blocks.py
import numpy as np
import mxnet as mx
from gluonnlp.model import AttentionCell
from mxnet import gluon
from mxnet.gluon import nn
from mxnet.ndarray import L2Normalization


def masked_softmax(F, score, mask, dtype):
    """Softmax over the memory axis that leaves out the slots where mask is 0.

    score, mask: (batch, query_length, memory_length); mask is 1 for usable slots.
    """
    if mask is not None:
        neg = -1e18
        if np.dtype(dtype) == np.float16:
            neg = -1e4
        else:
            try:
                # with automatic mixed precision -1e18 would overflow to -inf and make NaN
                from mxnet.contrib import amp
                if amp.amp._amp_initialized:
                    neg = -1e4
            except ImportError:
                pass
        score = F.where(mask, score, neg * F.ones_like(score))
        weights = F.softmax(score, axis=-1) * mask
    else:
        weights = F.softmax(score, axis=-1)
    return weights


def get_attention_cell(kind, units=None, scaled=True, num_heads=None, use_bias=False, dropout=0.0,
                       activation="relu"):
    if kind == "scaled_dot":
        return DotProductCell(units=units, scaled=True, use_bias=use_bias, dropout=dropout)
    if kind == "dot":
        return DotProductCell(units=units, scaled=False, use_bias=use_bias, dropout=dropout)
    if kind == "cosine":
        return DotProductCell(units=units, scaled=False, normalized=True, use_bias=use_bias, dropout=dropout)
    if kind == "multi_head":
        base = DotProductCell(scaled=scaled, dropout=dropout, activation=activation)
        return MultiHeadCell(base, query_units=units, key_units=units, value_units=units,
                             num_heads=num_heads, use_bias=use_bias)
    raise NotImplementedError(kind)


class DotProductCell(AttentionCell):
    """score = <W_q h_q, W_k h_k> / sqrt(d), optionally cosine; the read by weight is the base class's."""

    def __init__(self, units=None, scaled=True, normalized=False, use_bias=True, activation=None,
                 dropout=0.0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._units = units
        self._scaled = scaled
        self._normalized = normalized
        self._activation = activation
        with self.name_scope():
            self._dropout_layer = nn.Dropout(dropout)
            if activation is not None:
                # leaky ReLU on the projections, as the BST paper has it
                self.act = gluon.nn.LeakyReLU(alpha=0.1)
            if units is not None:
                self._proj_query = nn.Dense(units=units, use_bias=use_bias, flatten=False, prefix="query_")
                self._proj_key = nn.Dense(units=units, use_bias=use_bias, flatten=False, prefix="key_")
            if normalized:
                self._l2_norm = L2Normalization(axis=-1)

    def _compute_weight(self, F, query, key, mask=None):
        if self._units is not None:
            query = self._proj_query(query)
            key = self._proj_key(key)
            if self._activation is not None:
                query = self.act(query)
                key = self.act(key)
        if self._normalized:
            query = self._l2_norm(query)
            key = self._l2_norm(key)
        if self._scaled:
            query = F.contrib.div_sqrt_dim(query)

        score = F.batch_dot(query, key, transpose_b=True)
        return self._dropout_layer(masked_softmax(F, score, mask, self._dtype))


class MultiHeadCell(AttentionCell):
    """Projects q, k, v per head, folds the heads into the batch and runs the base cell."""

    def __init__(self, base_cell, query_units, key_units, value_units, num_heads, use_bias=True,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._base_cell = base_cell
        self._num_heads = num_heads
        for name, unit in (("query", query_units), ("key", key_units), ("value", value_units)):
            if unit % num_heads != 0:
                raise ValueError(f"{name}_units={unit} is not divisible by num_heads={num_heads}")
            with self.name_scope():
                setattr(self, f"proj_{name}", nn.Dense(units=unit, use_bias=use_bias, flatten=False, prefix=f"{name}_"))

    def _project(self, F, name, x):
        x = getattr(self, f"proj_{name}")(x)  # (batch, length, units)
        # (batch, length, heads, d_head) -> (batch, heads, length, d_head) -> (batch * heads, length, d_head)
        x = F.transpose(x.reshape(shape=(0, 0, self._num_heads, -1)), axes=(0, 2, 1, 3))
        return x.reshape(shape=(-1, 0, 0), reverse=True)

    def _compute_weight(self, F, query, key, mask=None):
        query = self._project(F, "query", query)
        key = self._project(F, "key", key)
        if mask is not None:
            mask = F.broadcast_axis(F.expand_dims(mask, axis=1), axis=1, size=self._num_heads)
            mask = mask.reshape(shape=(-1, 0, 0), reverse=True)
        weights = self._base_cell._compute_weight(F, query, key, mask)
        return weights.reshape(shape=(-1, self._num_heads, 0, 0), reverse=True)

    def _read_by_weight(self, F, weights, value):
        weights = weights.reshape(shape=(-1, 0, 0), reverse=True)
        value = self._project(F, "value", value)
        context = self._base_cell._read_by_weight(F, weights, value)
        context = context.reshape(shape=(-1, self._num_heads, 0, 0), reverse=True)
        return F.transpose(context, axes=(0, 2, 1, 3)).reshape(shape=(0, 0, -1))
