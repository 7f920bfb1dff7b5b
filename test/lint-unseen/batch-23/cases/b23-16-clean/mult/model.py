# case: b23-16-clean
# modelled-on: vnnm404/flax-transformer https://github.com/vnnm404/flax-transformer/commit/226a0f222f073c8d3120f19627ef9e301de3da0d
# label: correct
# class: clean
# pattern: a decoder-only Flax (linen) transformer for digit multiplication: the collate function in another module returns a float padding mask, 1.0 on real tokens and 0.0 on padding; the model turns it into a pairwise mask with nn.make_attention_mask(pad, pad), builds nn.make_causal_mask(input_ids), merges them with nn.combine_masks and passes the result to nn.SelfAttention(mask=...) in every block
# why: correct: Flax attention masks are keep masks (1 / True = may attend), make_attention_mask of two keep vectors is 1 only where both query and key are real, make_causal_mask is 1 on and below the diagonal, and combine_masks takes their logical AND, so padding and the future are blocked and nothing else; nn.SelfAttention applies the 1/sqrt(head_dim) scale and the softmax over keys itself
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/vnnm404/flax-transformer https://github.com/vnnm404/flax-transformer/commit/226a0f222f073c8d3120f19627ef9e301de3da0d models/transformer.py
from dataclasses import dataclass

import flax.linen as nn
import jax.numpy as jnp


@dataclass
class TransformerConfig:
    vocab_size: int
    emb_dim: int = 256
    num_heads: int = 8
    num_layers: int = 4
    mlp_dim: int = 512
    max_len: int = 512
    dropout_rate: float = 0.1


class LearnedPositions(nn.Module):
    config: TransformerConfig

    @nn.compact
    def __call__(self, x):
        pos = jnp.arange(x.shape[1])
        return nn.Embed(num_embeddings=self.config.max_len, features=self.config.emb_dim)(pos)[None, :, :]


class Block(nn.Module):
    config: TransformerConfig

    @nn.compact
    def __call__(self, x, mask=None, train=True):
        attn = nn.SelfAttention(
            num_heads=self.config.num_heads,
            qkv_features=self.config.emb_dim,
            dropout_rate=self.config.dropout_rate,
            use_bias=True,
        )
        x = nn.LayerNorm()(x + attn(x, mask=mask, deterministic=not train))
        y = nn.Dense(self.config.emb_dim)(nn.gelu(nn.Dense(self.config.mlp_dim)(x)))
        return nn.LayerNorm()(x + y)


class DecoderOnlyTransformer(nn.Module):
    config: TransformerConfig

    @nn.compact
    def __call__(self, input_ids, padding_mask, train=True):
        x = nn.Embed(num_embeddings=self.config.vocab_size, features=self.config.emb_dim)(input_ids)
        x = x + LearnedPositions(self.config)(x)
        pair_mask = nn.make_attention_mask(padding_mask, padding_mask, dtype=jnp.float32)
        causal = nn.make_causal_mask(input_ids, dtype=jnp.float32)
        mask = nn.combine_masks(causal, pair_mask)
        for _ in range(self.config.num_layers):
            x = Block(self.config)(x, mask=mask, train=train)
        return nn.Dense(self.config.vocab_size)(x)
