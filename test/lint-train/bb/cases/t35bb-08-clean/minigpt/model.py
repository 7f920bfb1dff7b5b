# case: t35bb-08-clean
# modelled-on: Srushti-9/minigpt-jax https://github.com/Srushti-9/minigpt-jax/commit/17229a5322ab9ef6b63383fe906c7bc023e4b2f5
# label: correct
# class: clean
# pattern: a Flax NNX MiniGPT (attention-only blocks around nnx.MultiHeadAttention): training passes a float keep mask `jnp.tril(jnp.ones((T, T)))` as `mask=`; generation (another module) switches every attention layer to `decode=True`, initialises its KV cache for maxlen positions, and feeds the prompt and then each sampled token ONE token per call with `mask=None`; the sampler fills vocabulary logits below the top-k threshold with -inf
# why: correct: Flax's `mask` is True/1 where a query may attend, so tril(ones) keeps the past and the diagonal; in decode mode nnx.MultiHeadAttention writes the single new key and value into its cache at the cache index and masks the cache itself (positions <= the index), so a None mask with one query per call is the intended use (a multi-token call in decode mode is rejected by Flax); the -inf fill is on next-token logits before sampling, not on attention scores
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Srushti-9/minigpt-jax https://github.com/Srushti-9/minigpt-jax/commit/17229a5322ab9ef6b63383fe906c7bc023e4b2f5 src/minigpt/model.py
from dataclasses import dataclass

import flax.nnx as nnx
import jax.numpy as jnp


@dataclass
class ModelConfig:
    maxlen: int = 128
    vocab_size: int = 50257
    embed_dim: int = 256
    num_heads: int = 8
    num_transformer_blocks: int = 8


class TokenAndPositionEmbedding(nnx.Module):
    def __init__(self, maxlen, vocab_size, embed_dim, *, rngs):
        self.token_emb = nnx.Embed(vocab_size, embed_dim, rngs=rngs)
        self.pos_emb = nnx.Embed(maxlen, embed_dim, rngs=rngs)

    def __call__(self, x, start_pos=0):
        positions = jnp.arange(x.shape[1]) + start_pos
        return self.token_emb(x) + self.pos_emb(positions[None, :])


class TransformerBlock(nnx.Module):
    def __init__(self, embed_dim, num_heads, *, rngs):
        self.attention = nnx.MultiHeadAttention(
            num_heads=num_heads,
            in_features=embed_dim,
            qkv_features=embed_dim,
            out_features=embed_dim,
            decode=False,
            rngs=rngs,
        )

    def __call__(self, x, mask=None):
        return x + self.attention(x, mask=mask)


class MiniGPT(nnx.Module):
    def __init__(self, config: ModelConfig = ModelConfig(), *, rngs: nnx.Rngs = nnx.Rngs(0)):
        self.maxlen = config.maxlen
        self.embedding = TokenAndPositionEmbedding(config.maxlen, config.vocab_size, config.embed_dim, rngs=rngs)
        self.transformer_blocks = [
            TransformerBlock(config.embed_dim, config.num_heads, rngs=rngs)
            for _ in range(config.num_transformer_blocks)
        ]
        self.output_layer = nnx.Linear(config.embed_dim, config.vocab_size, use_bias=False, rngs=rngs)

    def causal_attention_mask(self, seq_len):
        return jnp.tril(jnp.ones((seq_len, seq_len)))

    def init_decode_cache(self, batch_size=1):
        for block in self.transformer_blocks:
            block.attention.decode = True
            block.attention.init_cache((batch_size, self.maxlen, self.embedding.token_emb.features))

    def disable_decode(self):
        for block in self.transformer_blocks:
            block.attention.decode = False

    def __call__(self, token_ids, start_pos=0, decode=False):
        x = self.embedding(token_ids, start_pos=start_pos)
        mask = None if decode else self.causal_attention_mask(token_ids.shape[1])
        for block in self.transformer_blocks:
            x = block(x, mask=mask)
        return self.output_layer(x)
