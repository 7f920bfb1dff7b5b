import flax.linen as nn
import jax.numpy as jnp

from config import Config
from modules import Attention


class TransformerBlock(nn.Module):
    cfg: Config

    @nn.compact
    def __call__(self, x):
        x = x + Attention(self.cfg)(nn.LayerNorm(epsilon=self.cfg.layer_norm_eps)(x))
        h = nn.Dense(self.cfg.d_mlp)(nn.LayerNorm(epsilon=self.cfg.layer_norm_eps)(x))
        return x + nn.Dense(self.cfg.d_model)(nn.gelu(h))


class Transformer(nn.Module):
    cfg: Config

    @nn.compact
    def __call__(self, tokens):
        x = nn.Embed(self.cfg.d_vocab, self.cfg.d_model)(tokens)
        x = x + self.param("pos", nn.initializers.normal(0.02), (self.cfg.n_ctx, self.cfg.d_model))[: tokens.shape[1]]
        for _ in range(self.cfg.n_layers):
            x = TransformerBlock(self.cfg)(x)
        return nn.Dense(self.cfg.d_vocab)(nn.LayerNorm()(x))
