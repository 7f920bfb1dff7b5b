import jax.numpy as jnp

from layers import multihead_attention


def layer_norm(x, eps=1e-6):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps)


def decoder_block(x, mask, params, training=True):
    h, _ = multihead_attention([x, x, x, mask], params["mha"], training=training)
    x = layer_norm(x + h)
    ff = jnp.maximum(0.0, x @ params["W1"]) @ params["W2"]
    return layer_norm(x + ff)


def forward_lm(tokens, params, training=True):
    seq_len = tokens.shape[0]
    x = params["embed"][tokens] + params["pos"][:seq_len]
    keep = jnp.tril(jnp.ones((seq_len, seq_len)))
    mask = keep.at[jnp.where(keep == 1.0)].set(0.0)
    mask = mask.at[jnp.where(keep == 0.0)].set(-1e9)  # additive: 0 kept, -1e9 above the diagonal
    for block in params["blocks"]:
        x = decoder_block(x, mask, block, training=training)
    return x @ params["embed"].T
