# case: b63-03-softmax
# modelled-on: Ncjdod/First-Transformer https://github.com/Ncjdod/First-Transformer/commit/e9d2314a3b0fa26b3fd836d0de69492f61687c55
# label: buggy
# class: real-bug
# pattern: a first single-head causal self-attention in jax.numpy, written as nested helper functions whose default arguments evaluate the projections; a hand-written `softmax(x)` helper divides `exp(x)` by `jnp.sum(exp(x))`; the (seq, seq) score matrix gets an additive -inf upper-triangle mask, is divided by sqrt(d_k) and goes through that helper before the product with the values
# why: buggy: `jnp.sum` without an axis adds up every entry of the (seq, seq) matrix, so the helper divides all scores by one global constant and the rows of the attention matrix no longer sum to one (each row's weights shrink with the number of rows), instead of normalising each query's row over the keys; the author fixed the helper to `jnp.sum(..., axis=-1, keepdims=True)` in commit 05d066b on the `work` branch
# source: https://github.com/Ncjdod/First-Transformer https://github.com/Ncjdod/First-Transformer/commit/e9d2314a3b0fa26b3fd836d0de69492f61687c55 attention_layer.py
import jax
import jax.numpy as jnp


def softmax(z):
    e = jnp.exp(z)
    return e / jnp.sum(e)  # expect: ATT001


def self_attention(tokens, w_query, w_key, w_value):
    def project_q():
        return jnp.matmul(tokens, w_query)

    def project_k():
        return jnp.matmul(tokens, w_key)

    def project_v():
        return jnp.matmul(tokens, w_value)

    def scores(q=project_q(), k=project_k()):
        return jnp.matmul(q, jnp.transpose(k))

    def weights(s=scores(), head_dim=8):
        future = jnp.triu(jnp.ones_like(s, dtype=bool), k=1)
        bias = jnp.where(future, -jnp.inf, jnp.zeros_like(s))
        return softmax((s + bias) / jnp.sqrt(head_dim))

    def mix(a=weights(), v=project_v()):
        return jnp.matmul(a, v)

    return mix(), weights()


rng = jax.random.PRNGKey(0)
r_x, r_q, r_k, r_v = jax.random.split(rng, 4)
x = jax.random.normal(r_x, shape=(4, 8))
wq = jax.random.normal(r_q, shape=(8, 8))
wk = jax.random.normal(r_k, shape=(8, 8))
wv = jax.random.normal(r_v, shape=(8, 8))
out, attn = self_attention(x, wq, wk, wv)
print(out)
