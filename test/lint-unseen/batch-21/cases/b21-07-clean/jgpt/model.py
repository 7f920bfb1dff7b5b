# case: b21-07-clean
# modelled-on: enerrio/jax-gpt2 https://github.com/enerrio/jax-gpt2/commit/00a808b25febf44f11afb3e84e42a25cddf76794
# label: correct
# class: clean
# pattern: a GPT-2 in JAX/Equinox that works on one unbatched sequence (the batch is added by vmap outside): projections are vmapped Linear layers, einops splits heads to (heads, seq, head_dim), the queries are divided by jnp.sqrt(keys.shape[-1]) before the product, the keys are rearranged by einops to (heads, head_dim, seq) so the scores are a plain queries @ keys, the causal mask is jnp.tril(ones(bool)) used as jnp.where(mask, scores, -inf), and jax.nn.softmax normalises over axis=-1; sizes come from a config dict in another module
# why: correct: scaling q by 1/sqrt(head_dim) before the product is the same as scaling the scores; the einops pattern puts head_dim before seq, so queries @ keys is (heads, seq, seq) with the keys last; tril is True on and below the diagonal, i.e. where a query may attend, and jnp.where keeps the scores there; every row keeps its diagonal, so -inf never fills a whole row
# looks-like: ATT002, ATT003, ATT005, ATT007
# source: https://github.com/enerrio/jax-gpt2 https://github.com/enerrio/jax-gpt2/commit/00a808b25febf44f11afb3e84e42a25cddf76794 gpt/model.py
import einops
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


class CausalSelfAttention(eqx.Module):
    W_q: eqx.nn.Linear
    W_k: eqx.nn.Linear
    W_v: eqx.nn.Linear
    out_proj: eqx.nn.Linear
    drop: eqx.nn.Dropout
    n_heads: int

    def __init__(self, cfg, key):
        k1, k2, k3, k4 = jr.split(key, 4)
        self.n_heads = cfg["n_heads"]
        assert cfg["emb_dim"] % self.n_heads == 0
        self.W_q = eqx.nn.Linear(cfg["emb_dim"], cfg["emb_dim"], use_bias=cfg["qkv_bias"], key=k1)
        self.W_k = eqx.nn.Linear(cfg["emb_dim"], cfg["emb_dim"], use_bias=cfg["qkv_bias"], key=k2)
        self.W_v = eqx.nn.Linear(cfg["emb_dim"], cfg["emb_dim"], use_bias=cfg["qkv_bias"], key=k3)
        self.out_proj = eqx.nn.Linear(cfg["emb_dim"], cfg["emb_dim"], key=k4)
        self.drop = eqx.nn.Dropout(cfg["drop_rate"])

    @staticmethod
    def causal_mask(n):
        return jnp.tril(jnp.ones((n, n), dtype=jnp.bool_))

    def __call__(self, x, inference=False, key=None):
        # x: (seq_len, emb_dim), one sequence
        q = jax.vmap(self.W_q)(x)
        k = jax.vmap(self.W_k)(x)
        v = jax.vmap(self.W_v)(x)
        q = einops.rearrange(q, "s (h d) -> h s d", h=self.n_heads)
        k = einops.rearrange(k, "s (h d) -> h s d", h=self.n_heads)
        v = einops.rearrange(v, "s (h d) -> h s d", h=self.n_heads)

        q = q / jnp.sqrt(k.shape[-1])
        scores = q @ einops.rearrange(k, "h s d -> h d s")
        scores = jnp.where(self.causal_mask(x.shape[0]), scores, -jnp.inf)
        weights = jax.nn.softmax(scores, axis=-1)
        weights = self.drop(weights, inference=inference, key=key)

        ctx = einops.rearrange(weights @ v, "h s d -> s (h d)")
        return jax.vmap(self.out_proj)(ctx)


class Block(eqx.Module):
    attn: CausalSelfAttention
    fc: eqx.nn.Linear
    proj: eqx.nn.Linear
    ln1: eqx.nn.LayerNorm
    ln2: eqx.nn.LayerNorm

    def __init__(self, cfg, key):
        k1, k2, k3 = jr.split(key, 3)
        self.attn = CausalSelfAttention(cfg, k1)
        self.fc = eqx.nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"], key=k2)
        self.proj = eqx.nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"], key=k3)
        self.ln1 = eqx.nn.LayerNorm(cfg["emb_dim"])
        self.ln2 = eqx.nn.LayerNorm(cfg["emb_dim"])

    def __call__(self, x, inference=False, key=None):
        x = x + self.attn(jax.vmap(self.ln1)(x), inference=inference, key=key)
        h = jax.nn.gelu(jax.vmap(self.fc)(jax.vmap(self.ln2)(x)))
        return x + jax.vmap(self.proj)(h)


def build_blocks(cfg, key):
    from jgpt.config import GPT2_SMALL

    cfg = cfg or GPT2_SMALL
    keys = jr.split(key, cfg["n_layers"])
    return [Block(cfg, k) for k in keys]
