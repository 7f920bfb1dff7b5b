# case: b12-09-clean
# modelled-on: matttulio/JAX-Transformer https://github.com/matttulio/JAX-Transformer/commit/356ab9fb99f7b34c65b38aac5dbf2aaad8cc977e
# label: correct
# class: clean
# pattern: a Flax single-head attention layer from a study of semantic versus positional attention: the query, key and value matrices are (model_dim, model_dim) parameters, a fixed 0/1 diagonal filter picks the semantic or positional half of the input for queries and keys, scores are Qx @ swapaxes(Kx, -1, -2) / sqrt(model_dim), a triu(ones, k=1) boolean mask fills -inf through jnp.where(mask, -inf, scores), and softmax runs over axis -1
# why: correct: the layer has one head whose queries and keys are model_dim wide (the filter zeroes features but keeps the width), so sqrt(model_dim) is the key-width scale; triu with k=1 is True strictly above the diagonal, the future keys, and the where writes -inf exactly there, so every row keeps its diagonal; swapaxes(-1, -2) transposes the batched keys; what a naive linter could misread: ATT004 (a scale read from the model width), ATT002 (jnp.where with a triu mask as the condition), ATT007 (-inf), ATT005 (swapaxes on the keys)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/matttulio/JAX-Transformer https://github.com/matttulio/JAX-Transformer/commit/356ab9fb99f7b34c65b38aac5dbf2aaad8cc977e src/transformer.py
import math

import flax.linen as nn
import jax
import jax.numpy as jnp


def uniform_init(rng, shape):
    return jax.random.uniform(rng, shape, minval=-math.sqrt(5), maxval=math.sqrt(5))


class FilteredSelfAttention(nn.Module):
    model_dim: int
    attention_input: str = "both"  # 'both', 'only_sem' or 'only_pos'

    def setup(self):
        half = self.model_dim // 2
        filt = jnp.zeros((self.model_dim, self.model_dim))
        if self.attention_input == "both":
            filt = jnp.eye(self.model_dim)
        elif self.attention_input == "only_sem":
            filt = filt.at[jnp.arange(0, half), jnp.arange(0, half)].set(1.0)
        else:
            filt = filt.at[jnp.arange(half, 2 * half), jnp.arange(half, 2 * half)].set(1.0)
        self.filt = filt
        self.Q = self.param("Q", uniform_init, (self.model_dim, self.model_dim))
        self.K = self.param("K", uniform_init, (self.model_dim, self.model_dim))
        self.V = self.param("V", uniform_init, (self.model_dim, self.model_dim))

    def __call__(self, x):
        qx = x @ self.filt @ self.Q
        kx = x @ self.filt @ self.K
        vx = x @ self.V
        scores = jnp.matmul(qx, jnp.swapaxes(kx, -1, -2)) / math.sqrt(self.model_dim)
        _, t, _ = scores.shape
        mask = jnp.triu(jnp.ones((t, t)), k=1).astype(bool)
        scores = jnp.where(mask, -jnp.inf, scores)
        probs = jax.nn.softmax(scores, axis=-1)
        return probs @ vx, probs
