# case: b63-04-softmax
# modelled-on: Ncjdod/First-Transformer https://github.com/Ncjdod/First-Transformer/commit/cc4551014a0eedbb4da2ee04ee8940767ec721f9
# label: correct
# class: fixed
# pattern: the same single-head causal self-attention in jax.numpy after the fix, flattened into one function: the hand-written `softmax` helper now sums `exp` over the last axis with keepdims; the causal mask is written into the scores with `jnp.where(upper_triangle, -inf, scores)` before the division by sqrt(d_k), and d_k is read from the key weight's width
# why: correct: the (seq, seq) scores are (query, key), so the helper's last-axis sum normalises each query's row over the keys; -inf only ever covers the strict upper triangle, so the diagonal keeps every row finite and dividing -inf by sqrt(d_k) leaves it -inf; the scale is 1/sqrt of the key width
# looks-like: ATT001, ATT003, ATT007
# source: https://github.com/Ncjdod/First-Transformer https://github.com/Ncjdod/First-Transformer/commit/cc4551014a0eedbb4da2ee04ee8940767ec721f9 attention_layer.py
import jax
import jax.numpy as jnp


def normalise(logits):
    num = jnp.exp(logits)
    return num / jnp.sum(num, axis=-1, keepdims=True)


def causal_attention(seq, proj_q, proj_k, proj_v):
    q = seq @ proj_q
    k = seq @ proj_k
    v = seq @ proj_v
    width = jnp.shape(proj_k)[-1]

    logits = q @ jnp.transpose(k)
    ahead = jnp.triu(jnp.ones_like(logits, dtype=bool), k=1)
    logits = jnp.where(ahead, -jnp.inf, logits)

    probs = normalise(logits / jnp.sqrt(width))
    return probs @ v, probs


if __name__ == "__main__":
    keys = jax.random.split(jax.random.PRNGKey(7), 4)
    seq = jax.random.normal(keys[0], shape=(16, 8))
    mats = [jax.random.normal(kk, shape=(8, 8)) for kk in keys[1:]]
    result, probs = causal_attention(seq, *mats)
    print(result.shape)
