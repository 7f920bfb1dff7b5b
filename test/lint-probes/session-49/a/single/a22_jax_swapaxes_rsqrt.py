import jax
import jax.numpy as jnp


def causal_self_attention(params, x, n_head):
    T, C = x.shape
    qkv = x @ params["w_qkv"] + params["b_qkv"]
    q, k, v = jnp.split(qkv, 3, axis=-1)
    hd = C // n_head
    q = q.reshape(T, n_head, hd).swapaxes(0, 1)
    k = k.reshape(T, n_head, hd).swapaxes(0, 1)
    v = v.reshape(T, n_head, hd).swapaxes(0, 1)
    att = (q @ jnp.swapaxes(k, -1, -2)) * jax.lax.rsqrt(jnp.float32(hd))
    causal = jnp.tril(jnp.ones((T, T), dtype=bool))
    att = jnp.where(causal[None], att, jnp.finfo(att.dtype).min)
    att = jax.nn.softmax(att, axis=-1)
    y = (att @ v).swapaxes(0, 1).reshape(T, C)
    return y @ params["w_o"]
