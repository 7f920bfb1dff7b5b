import jax.numpy as jnp
from flax import linen as nn


def attention(q, k, v):
    assert q.shape == k.shape == v.shape
    seq_len, head_dim = q.shape
    return nn.softmax(q @ k.T / jnp.sqrt(head_dim)) @ v
