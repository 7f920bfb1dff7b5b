# case: b36-07-clean
# modelled-on: deep-learning-indaba/indaba-pracs-2022 https://github.com/deep-learning-indaba/indaba-pracs-2022/commit/16f8ccfbc14152185ab2768b06cd5f4f1808c98c
# label: correct
# class: clean
# pattern: the answer cells of a summer-school practical on attention and transformers in JAX / Haiku (a notebook): scaled_dot_product_attention divides matmul(query, swapaxes(key, -2, -1)) by sqrt(d_k), keeps the logits where mask[:T_q, :T_k] is set and puts -inf elsewhere with jnp.where, and softmaxes over axis=-1; multi-head attention reshapes to (B, N, T, d_m / N) with swapaxes(1, 2); the causal mask is jnp.tril(np.ones((T, T))) handed to every call (the notebook's decoder cross-attention, which reuses the same mask, is not part of this case)
# why: correct: the tril matrix is 1 on and below the diagonal, and jnp.where(mask, logits, -inf) keeps exactly those logits, so each position attends to itself and earlier ones (the diagonal is kept, so no row is all -inf); swapaxes(key, -2, -1) swaps the key's last two axes; d_k is the per-head width of the reshaped keys; axis=-1 is the key axis
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/deep-learning-indaba/indaba-pracs-2022 https://github.com/deep-learning-indaba/indaba-pracs-2022/commit/16f8ccfbc14152185ab2768b06cd5f4f1808c98c practicals/attention_and_transformers.ipynb
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


def scaled_dot_product_attention(query, key, value, mask=None):
    """query [..., T_q, d_k], key [..., T_k, d_k]; mask [T_mask, T_mask] with 1 where attending is allowed."""
    d_k = key.shape[-1]
    T_k, T_q = key.shape[-2], query.shape[-2]
    logits = jnp.matmul(query, jnp.swapaxes(key, -2, -1)) / jnp.sqrt(d_k)
    if mask is not None:
        logits = jnp.where(mask[:T_q, :T_k], logits, -jnp.inf)
    weights = jax.nn.softmax(logits, axis=-1)
    return jnp.matmul(weights, value), weights


class SequenceToQKV(hk.Module):
    def __init__(self, d_m, name=None):
        super().__init__(name=name)
        self.d_m = d_m

    def __call__(self, X):
        init = hk.initializers.VarianceScaling(0.5)
        return tuple(hk.Linear(self.d_m, w_init=init)(X) for _ in range(3))


class MultiHeadAttention(hk.Module):
    def __init__(self, num_heads, d_m, name=None):
        super().__init__(name=name)
        self.num_heads = num_heads
        self.to_qkv = SequenceToQKV(d_m)

    def __call__(self, X, mask=None):
        Q, K, V = self.to_qkv(X)
        B, T, d_m = K.shape
        head_size = d_m // self.num_heads
        # B, T, d_m -> B, T, N, d_m/N -> B, N, T, d_m/N
        split = lambda t: t.reshape(B, -1, self.num_heads, head_size).swapaxes(1, 2)
        attention, weights = scaled_dot_product_attention(split(Q), split(K), split(V), mask)
        attention = attention.swapaxes(1, 2).reshape(B, -1, d_m)
        return hk.Linear(d_m, w_init=hk.initializers.VarianceScaling(0.5))(attention), weights


def causal_language_model(tokens, vocab_size=128, d_m=64, num_heads=4):
    embeddings = hk.Embed(vocab_size, d_m)(tokens)
    T = tokens.shape[1]
    # lower-triangular ones: each position sees itself and the earlier ones
    mask = jnp.tril(np.ones((T, T)))
    out, weights = MultiHeadAttention(num_heads, d_m)(embeddings, mask=mask)
    return hk.Linear(vocab_size)(hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)(out + embeddings))


model = hk.transform(causal_language_model)
