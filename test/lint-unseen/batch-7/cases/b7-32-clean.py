# case: b7-32-clean
# modelled-on: wty-yy/Decision-Transformer-JAX https://github.com/wty-yy/Decision-Transformer-JAX/commit/92b1db00bf1758d481153957ef31ea1c73723d58
# label: correct
# class: clean
# pattern: a Flax Decision Transformer: one Dense(3 * n_embd) projection reshaped to (B, L, heads, 3 * D) and transposed to (B, heads, L, 3 * D), then split into q, k, v with jnp.array_split along the last axis, a causal keep mask from jnp.tri(L) expanded to (1, 1, L, L), jnp.where(mask == 0, -1e18, attn), and jax.nn.softmax with its default last axis
# why: correct: the per-head split of a fused projection is a valid parameterisation (each head gets its own D-wide q, k, v slices), the scale is 1/sqrt(D) of the per-head width, jnp.tri is 1 on and below the diagonal and the fill goes where it is 0, -1e18 fits float32 (the model has no half precision), and jax.nn.softmax normalises the key axis by default
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/wty-yy/Decision-Transformer-JAX https://github.com/wty-yy/Decision-Transformer-JAX/commit/92b1db00bf1758d481153957ef31ea1c73723d58 DT/dt_model.py
import flax.linen as nn
import jax
import jax.numpy as jnp


class CausalSelfAttention(nn.Module):
    n_embd: int  # n_embd % n_head == 0
    n_head: int
    p_drop_attn: float

    @nn.compact
    def __call__(self, x: jnp.ndarray, train: bool):
        D = self.n_embd // self.n_head
        B, L, _ = x.shape
        mask = jnp.expand_dims(jnp.tri(L), (0, 1))  # (1, 1, L, L): only earlier tokens
        x = nn.Dense(3 * self.n_embd)(x)
        q, k, v = jnp.array_split(x.reshape(B, L, self.n_head, -1).transpose(0, 2, 1, 3), 3, -1)  # (B, H, L, D) each
        attn = q @ jnp.swapaxes(k, -1, -2) / jnp.sqrt(D)
        attn = jnp.where(mask == 0, -1e18, attn)
        attn = jax.nn.softmax(attn)
        attn = nn.Dropout(self.p_drop_attn)(attn, deterministic=not train)
        y = (attn @ v).transpose(0, 2, 1, 3).reshape(B, L, self.n_embd)
        return nn.Dense(self.n_embd)(y)


class AttentionBlock(nn.Module):
    n_embd: int
    n_head: int
    p_drop_attn: float = 0.1

    @nn.compact
    def __call__(self, x: jnp.ndarray, train: bool):
        x = x + CausalSelfAttention(self.n_embd, self.n_head, self.p_drop_attn)(nn.LayerNorm()(x), train)
        z = nn.LayerNorm()(x)
        z = nn.Dense(4 * self.n_embd)(z)
        return x + nn.Dense(self.n_embd)(nn.gelu(z))
