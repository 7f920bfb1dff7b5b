import jax
import jax.numpy as jnp


def init_params(key, cfg: dict) -> dict:
    n_layers, d_model, d_ff = cfg["n_layers"], cfg["d_model"], cfg["d_ff"]
    # GPT-2: residual output projections start smaller, by 1/sqrt(2 * n_layers)
    proj_std = 0.02 / (2 * n_layers) ** 0.5

    def randn(k, *shape, std=0.02):
        return jax.random.normal(k, shape) * std

    def make_block(k):
        ks = jax.random.split(k, 6)
        return {
            "ln1": {"gamma": jnp.ones((d_model,)), "beta": jnp.zeros((d_model,))},
            "attn": {
                "wq": randn(ks[0], d_model, d_model),
                "bq": jnp.zeros((d_model,)),
                "wk": randn(ks[1], d_model, d_model),
                "bk": jnp.zeros((d_model,)),
                "wv": randn(ks[2], d_model, d_model),
                "bv": jnp.zeros((d_model,)),
                "wo": randn(ks[3], d_model, d_model, std=proj_std),
                "bo": jnp.zeros((d_model,)),
            },
            "ln2": {"gamma": jnp.ones((d_model,)), "beta": jnp.zeros((d_model,))},
            "mlp": {"w1": randn(ks[4], d_model, d_ff), "w2": randn(ks[5], d_ff, d_model, std=proj_std)},
        }

    return {"blocks": [make_block(k) for k in jax.random.split(key, n_layers)]}
