import jax
import jax.numpy as jnp


def mha(params, x, num_heads):
    B, T, D = x.shape
    hd = D // num_heads
    q = (x @ params["wq"]).reshape(B, T, num_heads, hd)
    k = (x @ params["wk"]).reshape(B, T, num_heads, hd)
    v = (x @ params["wv"]).reshape(B, T, num_heads, hd)
    out = jax.nn.dot_product_attention(q, k, v, is_causal=True)  # default scale 1/sqrt(hd)
    return out.reshape(B, T, D) @ params["wo"]
