# case: b6-07-clean
# modelled-on: theislab/CellFlow https://github.com/theislab/CellFlow/commit/446ed6073c60ac2e8db13c4ea096a43cdec288b2
# label: correct
# class: clean
# pattern: a Flax condition encoder pools a padded set of perturbation embeddings with Set-Transformer style pooling by multi-head attention: a trainable seed is the query, heads are split along the feature axis and folded into the batch (concatenate(split(., heads, axis=2), axis=0)), the scores Q K^T are divided by sqrt(v_dim), the set mask (True = real element) is repeated per head and applied with jnp.where(mask, A, -1e9) before nn.softmax over the set axis
# why: correct: this is the Set Transformer's reference formulation (Lee et al. 2019, whose code divides by sqrt(dim_V), the full value width, with heads folded into the batch), the mask keeps the True (real) elements, -1e9 is safe in float32, and nn.softmax defaults to the last axis, the set elements
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/theislab/CellFlow https://github.com/theislab/CellFlow/commit/446ed6073c60ac2e8db13c4ea096a43cdec288b2 src/cellflow/networks/_utils.py
from collections.abc import Callable

import flax.linen as nn
import jax.numpy as jnp
from flax.linen import initializers


class SeedAttentionPooling(nn.Module):
    """Pooling by multi-head attention with a trainable seed (Set Transformer, PMA)."""

    num_heads: int = 8
    v_dim: int = 64
    seed_dim: int = 64
    dropout_rate: float = 0.0
    transformer_block: bool = False
    act_fn: Callable[[jnp.ndarray], jnp.ndarray] = nn.silu

    @nn.compact
    def __call__(self, x, mask=None, training=True):
        """x: (batch, set, dim); mask: (batch, 1, set, set), True = real element. Returns (batch, v_dim)."""
        S = self.param("S", initializers.xavier_uniform(), (1, 1, self.seed_dim))
        S = jnp.tile(S, (x.shape[0], 1, 1))  # (batch, 1, seed_dim)

        Q = nn.Dense(self.v_dim)(S)
        K, V = nn.Dense(self.v_dim)(x), nn.Dense(self.v_dim)(x)
        # heads folded into the batch: (batch * heads, n, v_dim / heads)
        Q_ = jnp.concatenate(jnp.split(Q, self.num_heads, axis=2), axis=0)
        K_ = jnp.concatenate(jnp.split(K, self.num_heads, axis=2), axis=0)
        V_ = jnp.concatenate(jnp.split(V, self.num_heads, axis=2), axis=0)
        A = jnp.matmul(Q_, K_.transpose(0, 2, 1)) / jnp.sqrt(self.v_dim)  # (batch * heads, 1, set)
        if mask is not None:
            # (batch, 1, set, set) -> (batch * heads, 1, set), head-major like Q_
            mask = jnp.tile(mask[:, 0, [0], :], (self.num_heads, 1, 1))
            A = jnp.where(mask, A, -1e9)
        A = nn.softmax(A)
        A = jnp.matmul(A, V_)  # (batch * heads, 1, v_dim / heads)

        if self.transformer_block:
            O = jnp.concatenate(jnp.split(Q_ + A, self.num_heads, axis=0), axis=2)
            O = nn.Dropout(rate=self.dropout_rate)(O, deterministic=not training)
            O = O + self.act_fn(nn.Dense(self.v_dim)(O))
        else:
            O = jnp.concatenate(jnp.split(A, self.num_heads, axis=0), axis=2)
        return O.squeeze(1)


class ConditionEncoder(nn.Module):
    hidden_dim: int = 128
    num_heads: int = 8

    @nn.compact
    def __call__(self, conditions, lengths, training=True):
        # conditions: (batch, max_set, dim); lengths: (batch,) number of real elements
        valid = jnp.arange(conditions.shape[1])[None, :] < lengths[:, None]  # (batch, set)
        mask = valid[:, None, :, None] & valid[:, None, None, :]  # (batch, 1, set, set)
        h = nn.Dense(self.hidden_dim)(conditions)
        return SeedAttentionPooling(num_heads=self.num_heads, v_dim=self.hidden_dim, seed_dim=self.hidden_dim)(h, mask, training)
