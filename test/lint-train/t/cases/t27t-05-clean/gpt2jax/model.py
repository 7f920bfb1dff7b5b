# case: t27t-05-clean
# modelled-on: ralphite/myai https://github.com/ralphite/myai/commit/5503a9558f368edd3e87d4bf5b14237dc8eda7d0
# label: correct
# class: clean
# pattern: GPT-2 re-implemented in Flax linen to load the Hugging Face weights: widths from a config module; setup() stores jnp.tril(jnp.ones((ctx, ctx))).astype(bool); scores = q @ swapaxes(k) / sqrt(head_size); jnp.where(causal[:T, :T], scores, -1e4); nn.softmax(axis=-1); a generate module re-runs the whole prefix every step (no KV cache) and filters sampling logits with jnp.where(top_k_mask, x, -jnp.inf)
# why: correct: jnp.where keeps the scores where the condition is True, and the lower triangle is True on the query's own and earlier keys, so the future is replaced; -1e4 is GPT-2's own masked-bias value, far below the scaled scores of the pretrained model in float32 (exp(-1e4) is 0), and the diagonal is always kept; without a cache the square [:T, :T] slice is the whole mask; the -inf in the sampler is on vocabulary logits, where every row keeps its top k
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ralphite/myai https://github.com/ralphite/myai/commit/5503a9558f368edd3e87d4bf5b14237dc8eda7d0 reprod/gpt2_jax/model.py
import flax.linen as nn
import jax.numpy as jnp

from gpt2jax.config import GPT2Config


class GPT2MultiHeadAttention(nn.Module):
    config: GPT2Config

    def setup(self):
        ctx = self.config.context_size
        self.causal_mask = jnp.tril(jnp.ones((ctx, ctx))).astype(bool)  # True = may attend
        self.c_attn = nn.Dense(self.config.n_embd * 3)
        self.c_proj = nn.Dense(self.config.n_embd)

    def __call__(self, x):
        T = x.shape[-2]
        head_size = self.config.n_embd // self.config.n_head
        split = x.shape[:-1] + (self.config.n_head, head_size)
        q, k, v = jnp.split(self.c_attn(x), 3, axis=-1)
        q = jnp.swapaxes(jnp.reshape(q, split), -2, -3)  # (B, H, T, hs)
        k = jnp.swapaxes(jnp.reshape(k, split), -2, -3)
        v = jnp.swapaxes(jnp.reshape(v, split), -2, -3)

        scores = jnp.matmul(q, jnp.swapaxes(k, -1, -2)) / jnp.sqrt(head_size)  # (B, H, T, T)
        scores = jnp.where(self.causal_mask[:T, :T], scores, -1e4)
        weights = nn.softmax(scores, axis=-1).astype(v.dtype)
        out = jnp.swapaxes(jnp.matmul(weights, v), -2, -3)  # (B, T, H, hs)
        return self.c_proj(jnp.reshape(out, x.shape))


class GPT2MLP(nn.Module):
    config: GPT2Config

    @nn.compact
    def __call__(self, x):
        x = nn.gelu(nn.Dense(self.config.n_embd * 4, name="c_fc")(x))
        return nn.Dense(self.config.n_embd, name="c_proj")(x)


class GPT2Block(nn.Module):
    config: GPT2Config

    @nn.compact
    def __call__(self, x):
        x = x + GPT2MultiHeadAttention(name="attn", config=self.config)(nn.LayerNorm(name="ln_1")(x))
        return x + GPT2MLP(name="mlp", config=self.config)(nn.LayerNorm(name="ln_2")(x))


class GPT2LMHeadModel(nn.Module):
    config: GPT2Config

    @nn.compact
    def __call__(self, input_ids):
        wte = nn.Embed(self.config.vocab_size, self.config.n_embd, name="wte")
        wpe = nn.Embed(self.config.context_size, self.config.n_embd, name="wpe")
        x = wte(input_ids) + wpe(jnp.arange(input_ids.shape[-1]))
        for i in range(self.config.n_layer):
            x = GPT2Block(name=f"block_{i}", config=self.config)(x)
        x = nn.LayerNorm(name="ln_f")(x)
        return nn.Dense(self.config.vocab_size, use_bias=False, name="lm_head")(x)
