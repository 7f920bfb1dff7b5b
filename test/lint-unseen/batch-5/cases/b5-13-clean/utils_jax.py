import jax
import jax.numpy as jnp


def dot_product_attention_simple(query, key, value, mask=None):
    """Plain scaled dot-product attention for back ends without the fused kernel."""
    d_k = query.shape[-1]
    # [..., T_q, d] @ [..., d, T_k] -> [..., T_q, T_k]
    logits = jnp.matmul(query, jnp.swapaxes(key, -2, -1))
    logits = logits / jnp.sqrt(d_k)
    if mask is not None:
        logits = jnp.where(mask == 0, -jnp.inf, logits)
    weights = jax.nn.softmax(logits, axis=-1)
    return jnp.matmul(weights, value)
