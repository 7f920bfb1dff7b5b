# case: b30-09-clean
# modelled-on: nevilbhimani/jax-transformer-efficiency https://github.com/nevilbhimani/jax-transformer-efficiency/commit/848e2ddf28da45d9341e40ad650858dac472e091
# label: correct
# class: clean
# pattern: a Flax (linen) transformer benchmarked for throughput in bfloat16 with sharding constraints: a config dataclass whose head_dim property is d_model // num_heads; MultiHeadAttention projects with nn.DenseGeneral(features=(3, H, Dh)), takes q, k, v as qkv[:, :, i].transpose(0, 2, 1, 3), divides jnp.einsum('bhtd,bhsd->bhts', q, k) by jnp.sqrt(Dh) cast to bf16, keeps the scores with jnp.where(mask, scores, jnp.finfo(dtype).min) for the bf16 dtype, runs jax.nn.softmax in float32 over axis=-1 and casts back; the model passes jnp.tril(jnp.ones((T, T), dtype=bool))[None, None]
# why: correct: Dh is one head's width (the DenseGeneral output is (3, H, Dh)), so the scale is 1/sqrt(d_k); the einsum contracts the head features and gives (b, h, t, s), queries by keys; the boolean tril mask is True on allowed keys and jnp.where keeps those, putting the most negative finite bfloat16 value elsewhere, which stays finite in bf16 and becomes exp(...) = 0 in the float32 softmax over the key axis (the diagonal is never masked); the softmax is taken in float32 on purpose
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/nevilbhimani/jax-transformer-efficiency https://github.com/nevilbhimani/jax-transformer-efficiency/commit/848e2ddf28da45d9341e40ad650858dac472e091 model.py
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import flax.linen as nn
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P


@dataclass
class TransformerConfig:
    vocab_size: int = 32_000
    seq_len: int = 2048
    d_model: int = 2048
    num_heads: int = 16
    num_layers: int = 8
    d_ff: int = 8192
    dropout_rate: float = 0.0
    dtype: any = jnp.bfloat16

    @property
    def head_dim(self):
        assert self.d_model % self.num_heads == 0, \
            f"d_model ({self.d_model}) must be divisible by num_heads ({self.num_heads})"
        return self.d_model // self.num_heads


class MultiHeadAttention(nn.Module):
    config: TransformerConfig
    mesh: any

    @nn.compact
    def __call__(self, x, mask=None, deterministic=True):
        B, T, D = x.shape
        H = self.config.num_heads
        Dh = self.config.head_dim
        dtype = self.config.dtype

        x = x.astype(dtype)

        qkv = nn.DenseGeneral(
            features=(3, H, Dh),
            axis=-1,
            dtype=dtype,
            kernel_init=nn.initializers.normal(0.02),
            name="qkv_proj"
        )(x)
        # shape: (B, T, 3, H, Dh)

        qkv = jax.lax.with_sharding_constraint(
            qkv,
            NamedSharding(self.mesh, P("data", None, None, "model", None))
        )

        q, k, v = [qkv[:, :, i, :, :].transpose(0, 2, 1, 3) for i in range(3)]
        # shape: (B, H, T, Dh)

        # Scaled dot-product attention in bf16
        scale = jnp.sqrt(Dh).astype(dtype)
        attn_weights = jnp.einsum("bhtd,bhsd->bhts", q, k) / scale

        if mask is not None:
            attn_weights = jnp.where(mask, attn_weights, jnp.finfo(dtype).min)

        attn_weights = jax.nn.softmax(attn_weights.astype(jnp.float32), axis=-1).astype(dtype)

        attn_output = jnp.einsum("bhts,bhsd->bhtd", attn_weights, v)
        # shape: (B, H, T, Dh)

        attn_output = attn_output.transpose(0, 2, 1, 3).reshape(B, T, H * Dh)

        output = nn.DenseGeneral(
            features=D,
            axis=-1,
            dtype=dtype,
            kernel_init=nn.initializers.normal(0.02),
            name="out_proj"
        )(attn_output)
        return output


class Transformer(nn.Module):
    config: TransformerConfig
    mesh: any

    @nn.compact
    def __call__(self, token_ids, deterministic=True):
        B, T = token_ids.shape
        D = self.config.d_model
        dtype = self.config.dtype

        x = nn.Embed(
            num_embeddings=self.config.vocab_size,
            features=D,
            dtype=dtype,
            embedding_init=nn.initializers.normal(0.02),
            name="token_embedding"
        )(token_ids)

        # Causal mask
        mask = jnp.tril(jnp.ones((T, T), dtype=bool))[None, None, :, :]

        for i in range(self.config.num_layers):
            residual = x
            x = nn.LayerNorm(dtype=dtype, name=f"attn_norm_{i}")(x)
            x = MultiHeadAttention(config=self.config, mesh=self.mesh, name=f"attention_{i}")(x, mask=mask, deterministic=deterministic)
            x = x + residual

        return nn.LayerNorm(dtype=dtype, name="final_norm")(x)
