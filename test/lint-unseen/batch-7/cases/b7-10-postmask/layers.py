# case: b7-10-postmask
# modelled-on: machadoprx/Pure-JAX-Transformer https://github.com/machadoprx/Pure-JAX-Transformer/commit/1758862c0e9c742e5a0e87f3669752db014355a2
# label: buggy
# class: real-bug
# pattern: a pure-JAX language-model transformer written with functions and parameter dicts: multihead_attention reshapes the projections to (heads, seq, dk) and calls scaled_dot_product_att, which scales the queries, forms Q K^T and applies the mask with jnp.multiply before the softmax; the decoder module in another file builds the mask as np.tril(np.ones((T, T))) (1 = may attend) and passes it in
# why: buggy: multiplying the logits by a 0/1 keep mask sets the future positions to a logit of 0, not to a large negative number, so after the softmax every query still gives them weight exp(0) / Z and sees the future; the code's own comment says the intent is masked_fill(mask == 0, -1e9), and the fix commit builds an additive mask (0 kept, -1e9 masked) and adds it
# source: https://github.com/machadoprx/Pure-JAX-Transformer https://github.com/machadoprx/Pure-JAX-Transformer/commit/1758862c0e9c742e5a0e87f3669752db014355a2 transformer_lm/layers.py
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
    QK = jnp.matmul(Q / jnp.sqrt(dk), jnp.transpose(K, axes=(0, 2, 1)))  # (heads, T, T)
    if mask is not None:
        QK = jnp.multiply(QK, mask)  # expect: ATT006
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
