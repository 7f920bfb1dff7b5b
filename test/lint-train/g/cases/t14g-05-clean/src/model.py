# case: t14g-05-clean
# modelled-on: Junny20/jax-transformer-tinyshakespeare https://github.com/Junny20/jax-transformer-tinyshakespeare/commit/072b52aa10e6bf30a8e59ae3d0bf97c331c1f965
# label: correct
# class: clean
# pattern: a character-level GPT in plain JAX (no Flax): parameters are nested dicts made by an init module (another file) with GPT-2's scaled init for the output projections; the attention reshapes to (B, T, heads, d_head), transposes with (0, 2, 1, 3), multiplies q by k.transpose(0, 1, 3, 2), scales by d_head ** -0.5, keeps the causal scores with jnp.where(tril(ones(bool)), scores, -1e9) and softmaxes over axis=-1; dropout is another jnp.where over a Bernoulli keep mask
# why: correct: k.transpose(0, 1, 3, 2) swaps the last two axes of the 4-D keys (an ndarray transpose takes the whole permutation), d_head ** -0.5 is the per-head scale, the tril keep mask is True on and below the diagonal and the fill is finite, and the softmax runs over the keys; the proj_std division by sqrt(2 * n_layers) is an initialiser spread, not an attention scale; what a naive linter could misread: ATT005 (a 4-axis transpose permutation), ATT004 (** -0.5 and a sqrt division in the init module), ATT002 / ATT007 (jnp.where with a boolean mask and -1e9), ATT006 (a second jnp.where after the softmax, which is dropout)
# looks-like: ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/Junny20/jax-transformer-tinyshakespeare https://github.com/Junny20/jax-transformer-tinyshakespeare/commit/072b52aa10e6bf30a8e59ae3d0bf97c331c1f965 src/model.py
import jax
import jax.numpy as jnp

from init.params import init_params


def layer_norm(x, gamma, beta, eps: float = 1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / jnp.sqrt(var + eps) + beta


def _dropout(x, key, rate: float):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def mha_forward(x, p, n_heads: int, key, drop_rate: float, training: bool):
    B, T, d = x.shape
    d_head = d // n_heads
    q = x @ p["wq"] + p["bq"]
    k = x @ p["wk"] + p["bk"]
    v = x @ p["wv"] + p["bv"]
    q = q.reshape(B, T, n_heads, d_head).transpose(0, 2, 1, 3)
    k = k.reshape(B, T, n_heads, d_head).transpose(0, 2, 1, 3)
    v = v.reshape(B, T, n_heads, d_head).transpose(0, 2, 1, 3)
    scores = (q @ k.transpose(0, 1, 3, 2)) * (d_head**-0.5)
    causal = jnp.tril(jnp.ones((T, T), dtype=jnp.bool_))
    scores = jnp.where(causal, scores, -1e9)
    weights = jax.nn.softmax(scores, axis=-1)
    if training and drop_rate > 0.0:
        weights = _dropout(weights, key, drop_rate)
    out = (weights @ v).transpose(0, 2, 1, 3).reshape(B, T, d)
    return out @ p["wo"] + p["bo"]


def block(x, p, n_heads: int, keys, drop_rate: float, training: bool):
    h = layer_norm(x, p["ln1"]["gamma"], p["ln1"]["beta"])
    x = x + mha_forward(h, p["attn"], n_heads, keys[0] if keys is not None else None, drop_rate, training)
    h = layer_norm(x, p["ln2"]["gamma"], p["ln2"]["beta"])
    return x + jax.nn.gelu(h @ p["mlp"]["w1"]) @ p["mlp"]["w2"]


if __name__ == "__main__":
    cfg = dict(n_layers=2, d_model=64, d_ff=256, n_heads=4)
    params = init_params(jax.random.PRNGKey(0), cfg)
    x = jax.random.normal(jax.random.PRNGKey(1), (2, 16, cfg["d_model"]))
    print(block(x, params["blocks"][0], cfg["n_heads"], None, 0.0, False).shape)
