# case: t23p-07-mask
# modelled-on: stackviolator/chess-transformer-nnx https://github.com/stackviolator/chess-transformer-nnx/commit/3ab97b8c576eb4a1c66867eaeddd5a649418a5c7
# label: buggy
# class: real-bug
# pattern: a Flax NNX GPT for chess moves written with einsums (per-head weight tensors [heads, d_model, d_head], scores 'bqnh, bknh -> bnqk'), the scale 1/sqrt(d_head) read from a config dataclass in another module, and a causal-mask method that builds the mask from the scores themselves, jnp.triu(scores).astype(bool), and puts -inf where it is True with jnp.where before jax.nn.softmax(axis=-1)
# why: buggy: triu without k=1 keeps the diagonal, so every query is also barred from its own key, and the first query (which may only see itself) gets a row of -inf: a NaN after the softmax; building the mask from the score values (True where the score is non-zero) makes it data-dependent as well. The author's next commit builds it as jnp.triu(ones, k=1). The scale and the softmax axis are right
# source: https://github.com/stackviolator/chess-transformer-nnx https://github.com/stackviolator/chess-transformer-nnx/commit/3ab97b8c576eb4a1c66867eaeddd5a649418a5c7 src/model/Transformer.py
import jax
import jax.numpy as jnp
from flax import nnx

from chessnnx.config import TransformerConfig


class Attention(nnx.Module):
    def __init__(self, cfg: TransformerConfig, rngs: nnx.Rngs):
        key = rngs.params()
        self.cfg = cfg
        shape_in = (cfg.n_heads, cfg.d_model, cfg.d_head)
        self.W_Q = nnx.Param(jax.random.normal(key, shape_in) * cfg.init_std)
        self.W_K = nnx.Param(jax.random.normal(key, shape_in) * cfg.init_std)
        self.W_V = nnx.Param(jax.random.normal(key, shape_in) * cfg.init_std)
        self.W_O = nnx.Param(jax.random.normal(key, (cfg.n_heads, cfg.d_head, cfg.d_model)) * cfg.init_std)
        self.b_Q = nnx.Param(jnp.zeros((cfg.n_heads, cfg.d_head)))
        self.b_K = nnx.Param(jnp.zeros((cfg.n_heads, cfg.d_head)))
        self.b_V = nnx.Param(jnp.zeros((cfg.n_heads, cfg.d_head)))
        self.b_O = nnx.Param(jnp.zeros((cfg.d_model,)))

    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        # x: [batch, length, d_model]; b l m n h = batch, length, d_model, heads, d_head
        q = jnp.einsum("blm, nmh -> blnh", x, self.W_Q.value) + self.b_Q
        k = jnp.einsum("blm, nmh -> blnh", x, self.W_K.value) + self.b_K
        v = jnp.einsum("blm, nmh -> blnh", x, self.W_V.value) + self.b_V

        scores = jnp.einsum("bqnh, bknh -> bnqk", q, k)
        scores = self.causal_mask(scores / self.cfg.d_head**0.5)
        probs = jax.nn.softmax(scores, axis=-1)  # [batch, heads, q_pos, k_pos]

        z = jnp.einsum("bknh, bnqk -> bqnh", v, probs)
        return jnp.einsum("bqnh, nhm -> bqm", z, self.W_O.value) + self.b_O

    def causal_mask(self, scores: jnp.ndarray) -> jnp.ndarray:
        # scores: [batch, heads, q_pos, k_pos]
        mask = jnp.triu(scores).astype(bool)
        return jnp.where(mask, jax.lax.broadcast(-jnp.inf, scores.shape), scores)  # expect: ATT002


class Block(nnx.Module):
    def __init__(self, cfg: TransformerConfig):
        self.ln1 = nnx.LayerNorm(cfg.d_model, epsilon=cfg.ln_eps, rngs=nnx.Rngs(0))
        self.ln2 = nnx.LayerNorm(cfg.d_model, epsilon=cfg.ln_eps, rngs=nnx.Rngs(0))
        self.attn = Attention(cfg, rngs=nnx.Rngs(params=0))
        self.mlp_in = nnx.Linear(cfg.d_model, cfg.d_mlp, rngs=nnx.Rngs(0))
        self.mlp_out = nnx.Linear(cfg.d_mlp, cfg.d_model, rngs=nnx.Rngs(0))

    def __call__(self, resid: jnp.ndarray) -> jnp.ndarray:
        mid = self.attn(self.ln1(resid)) + resid
        return self.mlp_out(jax.nn.gelu(self.mlp_in(self.ln2(mid)))) + mid
