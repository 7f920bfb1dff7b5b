import jax
import jax.numpy as jnp

from .attention import flax_attention
from .common import causal_mask


def generate_tanh_softcap(soft_cap: float):
    def tanh_softcap(score, b, h, q_idx, kv_idx):
        return soft_cap * jnp.tanh(score / soft_cap)

    return tanh_softcap


def main():
    batch_size, q_heads, kv_heads = 2, 8, 2
    seq_len, feature_size = 256, 64

    query = jax.random.normal(jax.random.PRNGKey(1), (batch_size, q_heads, seq_len, feature_size))
    key = jax.random.normal(jax.random.PRNGKey(0), (batch_size, kv_heads, seq_len, feature_size))
    value = jax.random.normal(jax.random.PRNGKey(2), (batch_size, kv_heads, seq_len, feature_size))

    out, lse = flax_attention(
        query,
        key,
        value,
        score_mod=generate_tanh_softcap(30.0),
        mask_mod=causal_mask,
        enable_gqa=True,
        return_lse=True,
    )
    print(out.shape, lse.shape)


if __name__ == "__main__":
    main()
