# case: b58-07-clean
# modelled-on: Kingfish404/tinyGPT-jax https://github.com/Kingfish404/tinyGPT-jax/commit/656e7ec3353e7031c210fe32e53f8945c66aff2b
# label: correct
# class: clean
# pattern: a character-level GPT in Flax linen (a folder: the model builds its causal mask with nn.make_causal_mask over the block's input and hands it to nn.SelfAttention, pre-norm residual blocks; the sampler re-runs the model on the context cropped to the block size and samples the next character from the last position's logits; the chat script restores a checkpoint and calls the sampler)
# why: correct: nn.make_causal_mask returns a boolean (batch, 1, T, T) lower triangle in Flax's convention (True = may attend), which is what nn.SelfAttention's `mask` expects; Flax's dot_product_attention scales the queries by 1/sqrt(head_dim) and normalises over the keys itself; there is no KV cache (no `decode=True`), the sampler recomputes the cropped context each step, so the square mask always matches the keys
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/Kingfish404/tinyGPT-jax https://github.com/Kingfish404/tinyGPT-jax/commit/656e7ec3353e7031c210fe32e53f8945c66aff2b model.py
import jax
import jax.numpy as jnp
from flax import linen as nn
from flax.training import train_state


class DecoderBlock(nn.Module):
    heads: int
    width: int
    drop: float = 0.0

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        causal = nn.make_causal_mask(jnp.ones(x.shape[:2]))
        attn = nn.SelfAttention(num_heads=self.heads, dropout_rate=self.drop)
        x = x + attn(nn.LayerNorm()(x), mask=causal, deterministic=True)
        return x + nn.Dense(features=self.width)(nn.LayerNorm()(x))


class CharGPT(nn.Module):
    depth: int
    heads: int
    width: int
    block: int
    vocab: int

    @nn.compact
    def __call__(self, ids: jax.Array) -> jax.Array:
        h = nn.Embed(self.vocab, self.width)(ids) + nn.Embed(self.block, self.width)(jnp.arange(ids.shape[1]))
        for _ in range(self.depth):
            h = DecoderBlock(heads=self.heads, width=self.width)(h)
        return nn.Dense(self.vocab)(nn.LayerNorm()(h))


def sample(state: train_state.TrainState, ids: jax.Array, n_new: int, block: int, rng: jax.Array) -> jax.Array:
    for _ in range(n_new):
        window = ids[:, -block:]
        logits = state.apply_fn({"params": state.params}, window)[:, -1, :]
        rng, draw = jax.random.split(rng)
        nxt = jax.random.categorical(draw, logits, axis=-1)[:, None]
        ids = jnp.concatenate([ids, nxt], axis=-1)
    return ids
