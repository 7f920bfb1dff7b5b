# case: b7-11-postmask
# modelled-on: machadoprx/Pure-JAX-Transformer https://github.com/machadoprx/Pure-JAX-Transformer/commit/28ca4b63c7529306a045864826438f72fd287cb3
# label: correct
# class: fixed
# pattern: a pure-JAX language-model transformer written with functions and parameter dicts: multihead_attention reshapes the projections to (heads, seq, dk) and calls scaled_dot_product_att, which forms Q K^T / sqrt(dk) and adds the mask before the softmax; the decoder module in another file builds an additive mask from jnp.tril (0 where kept, -1e9 above the diagonal) with .at[].set and passes it in
# why: correct (after the fix commit): the mask is additive, 0 on and below the diagonal and -1e9 above it, so the future positions get no weight; -1e9 fits float32, in which the model runs
# looks-like: ATT002, ATT003, ATT006, ATT007
# source: https://github.com/machadoprx/Pure-JAX-Transformer https://github.com/machadoprx/Pure-JAX-Transformer/commit/28ca4b63c7529306a045864826438f72fd287cb3 transformer_lm/layers.py
import jax
import jax.numpy as jnp
from jax import lax
from jax.nn import softmax


def dropout(inputs, params, training=True):
    rate, rng = params["rate"], params["rng"]
    if rate <= 0 or not training:
        return inputs
    keep = jax.random.bernoulli(rng, p=1.0 - rate, shape=inputs.shape)
    return lax.select(keep, inputs / (1.0 - rate), jnp.zeros_like(inputs))


def scaled_dot_product_att(inputs, params, training=True):
    Q, K, V, mask = inputs  # Q, K: (heads, T, dk); V: (heads, T, dv); mask: (1, T, T)
    dk = Q.shape[-1]
    QK = jnp.matmul(Q, jnp.transpose(K, axes=(0, 2, 1))) / jnp.sqrt(dk)  # (heads, T, T)
    if mask is not None:
        QK = QK + mask  # additive: 0 kept, -1e9 masked
    attn = dropout(softmax(QK, axis=-1), {"rate": params["rate_att"], "rng": params["rng"]}, training=training)
    return jnp.matmul(attn, V), attn


def multihead_attention(inputs, params, training=True):
    Q, K, V, mask = inputs  # (T, d_model) each
    WQs, WKs, WVs, Wout, num_heads = params["WQs"], params["WKs"], params["WVs"], params["Wout"], params["num_heads"]
    T = Q.shape[0]
    dk = WQs.shape[-1] // num_heads
    Qs = jnp.matmul(Q, WQs).reshape((T, num_heads, dk)).transpose(1, 0, 2)  # (heads, T, dk)
    Ks = jnp.matmul(K, WKs).reshape((K.shape[0], num_heads, dk)).transpose(1, 0, 2)
    Vs = jnp.matmul(V, WVs).reshape((V.shape[0], num_heads, dk)).transpose(1, 0, 2)
    mask = jnp.expand_dims(mask, axis=0)
    out, attn = scaled_dot_product_att([Qs, Ks, Vs, mask], params, training=training)
    out = out.transpose(1, 0, 2).reshape(T, num_heads * dk)
    return jnp.matmul(out, Wout), attn
