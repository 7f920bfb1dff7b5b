import jax.numpy as jnp
import numpy as np

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
    mask = np.tril(np.ones((seq_len, seq_len)))  # 1 = position may be attended
    for block in params["blocks"]:
        x = decoder_block(x, mask, block, training=training)
    return x @ params["embed"].T
