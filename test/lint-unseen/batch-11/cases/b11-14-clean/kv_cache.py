from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class KVCache:
    """Full keys and values per layer, (batch, heads, cached_len, d_head) each."""

    keys: list
    values: list

    @classmethod
    def empty(cls, num_layers: int) -> KVCache:
        return cls(keys=[None] * num_layers, values=[None] * num_layers)

    def update(self, layer: int, k: jax.Array, v: jax.Array):
        if self.keys[layer] is None:
            self.keys[layer], self.values[layer] = k, v
        else:
            self.keys[layer] = jnp.concatenate([self.keys[layer], k], axis=2)
            self.values[layer] = jnp.concatenate([self.values[layer], v], axis=2)
        return self.keys[layer], self.values[layer]
