from dataclasses import dataclass

import jax.numpy as jnp


@dataclass
class DynamicKVCache:
    keys: jnp.ndarray  # (tokens, groups, channels)
    values: jnp.ndarray
    padding_mask: jnp.ndarray | None = None  # (tokens,) bool, True = real token

    @classmethod
    def init(cls, keys, values):
        return cls(keys=keys, values=values)

    def extend(self, keys, values):
        return DynamicKVCache(
            keys=jnp.concatenate([self.keys, keys], axis=0),
            values=jnp.concatenate([self.values, values], axis=0),
            padding_mask=None if self.padding_mask is None else jnp.concatenate([self.padding_mask, jnp.ones(keys.shape[0], bool)]),
        )

    def attention_mask(self, suffix_length, is_causal, sliding_window_size=None):
        """(suffix_length, tokens) bool, True where the query may read the key."""
        num_tokens = self.keys.shape[0]
        result = jnp.ones((suffix_length, num_tokens), dtype=jnp.bool_)
        if is_causal:
            key_positions = jnp.arange(num_tokens, dtype=jnp.int32)
            query_positions = num_tokens - suffix_length + jnp.arange(suffix_length, dtype=jnp.int32)
            result = query_positions[:, None] >= key_positions[None, :]
            if sliding_window_size is not None:
                result = jnp.logical_and(result, query_positions[:, None] < key_positions[None, :] + sliding_window_size)
        if self.padding_mask is not None:
            result = jnp.logical_and(result, self.padding_mask[None, :])
        return result
