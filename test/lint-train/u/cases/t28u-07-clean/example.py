import haiku as hk
import jax
import jax.numpy as jnp

from hk_mha2 import multi_head_attention as mha
from hk_mha2 import softmax_attention as sma


def he_init() -> hk.initializers.Initializer:
    return hk.initializers.VarianceScaling(scale=2.0, mode="fan_in", distribution="truncated_normal")


def reference_model(x: jax.Array) -> jax.Array:
    return hk.MultiHeadAttention(num_heads=2, key_size=int(36 / 2), w_init=he_init())(x, x, x)


def pluggable_model(x: jax.Array) -> jax.Array:
    layer = mha.MultiHeadAttention(
        num_heads=2,
        key_size=int(36 / 2),
        attention_fn=sma.softmax_attention_fn,
        w_init=he_init(),
    )
    return layer(x, x, x)


def main() -> None:
    key1, key2 = jax.random.split(jax.random.PRNGKey(6546), 2)
    x = jax.random.normal(key1, (1, 36, 1), jnp.float32)  # one series of 36 steps
    ref = hk.without_apply_rng(hk.transform(reference_model))
    new = hk.without_apply_rng(hk.transform(pluggable_model))
    y_ref = ref.apply(ref.init(key2, x), x)
    y_new = new.apply(new.init(key2, x), x)
    print(jnp.allclose(y_ref, y_new, atol=1e-5))


if __name__ == "__main__":
    main()
