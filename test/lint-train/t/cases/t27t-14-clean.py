# case: t27t-14-clean
# modelled-on: uservrlx/DSA4212 https://github.com/uservrlx/DSA4212/commit/55ba184d77c7be637d2bbb9ee789d0c3d1b10725
# label: correct
# class: clean
# pattern: course work: a GPT-style decoder in Flax linen trained on fixed windows of characters; the model builds causal = flax.linen.attention.make_causal_mask(jnp.ones((B, T), dtype=bool)) and passes it as mask= to nn.SelfAttention in every pre-LayerNorm block; the loss is a softmax cross-entropy over the vocabulary of every position
# why: correct: make_causal_mask gives a (B, 1, T, T) boolean mask that is True where the key is at or before the query, and Flax's attention keeps the positions where the mask is True (it fills the others with the dtype's minimum itself), so each position sees its past and itself; the windows are full (no padding), so no padding mask is needed; the attention's own scale and softmax axis are Flax's
# looks-like: ATT002, ATT008
# source: https://github.com/uservrlx/DSA4212 https://github.com/uservrlx/DSA4212/commit/55ba184d77c7be637d2bbb9ee789d0c3d1b10725 models/models.py
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.linen import attention as attn


class MLP(nn.Module):
    d_model: int
    mlp_ratio: int = 4

    @nn.compact
    def __call__(self, x):
        x = nn.gelu(nn.Dense(self.d_model * self.mlp_ratio)(x))
        return nn.Dense(self.d_model)(x)


class DecoderBlock(nn.Module):
    """Pre-LayerNorm block; causal when a causal mask is passed."""

    d_model: int
    n_heads: int
    dropout: float = 0.1

    @nn.compact
    def __call__(self, x, *, mask=None, deterministic=True):
        h = nn.SelfAttention(num_heads=self.n_heads, use_bias=False, dropout_rate=self.dropout,
                             deterministic=deterministic)(nn.LayerNorm()(x), mask=mask)
        x = x + nn.Dropout(rate=self.dropout)(h, deterministic=deterministic)
        h = MLP(self.d_model)(nn.LayerNorm()(x))
        return x + nn.Dropout(rate=self.dropout)(h, deterministic=deterministic)


class DecoderOnlyTransformer(nn.Module):
    vocab_size: int
    d_model: int
    n_layers: int
    n_heads: int
    max_len: int
    dropout: float = 0.1

    def setup(self):
        self.tok_embed = nn.Embed(self.vocab_size, self.d_model)
        self.positional_embed = self.param("positional_embed", nn.initializers.normal(stddev=0.02),
                                           (self.max_len, self.d_model))
        self.blocks = [DecoderBlock(self.d_model, self.n_heads, self.dropout) for _ in range(self.n_layers)]
        self.ln_f = nn.LayerNorm()
        self.project_to_vocab = nn.Dense(self.vocab_size, use_bias=False)

    def __call__(self, idx, deterministic=True):
        B, T = idx.shape
        x = self.tok_embed(idx) + self.positional_embed[:T]  # (B, T, D)
        # strictly causal (lower-triangular) mask, no padding mask: (B, 1, T, T)
        causal = attn.make_causal_mask(jnp.ones((B, T), dtype=bool))
        for blk in self.blocks:
            x = blk(x, mask=causal, deterministic=deterministic)
        return self.project_to_vocab(self.ln_f(x))  # (B, T, V)


def loss_fn(params, model, batch, rng):
    x, y = batch  # (B, T) inputs and next-character targets
    logits = model.apply({"params": params}, x, deterministic=False, rngs={"dropout": rng})
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@jax.jit
def accuracy(logits, y):
    return (jnp.argmax(logits, axis=-1) == y).mean()
