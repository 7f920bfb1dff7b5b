# case: b32-08-clean
# modelled-on: Ph03n1xdust/SetTransformer-jax https://github.com/Ph03n1xdust/SetTransformer-jax/commit/39fe5f09e21c2e80805cb6add3f4ebbbbbaf9697
# label: correct
# class: clean
# pattern: a Flax port of the Set Transformer (Lee et al.) for a max-regression toy task: MAB projects x to queries and y to keys and values with DenseGeneral(features=(N_head, N_dim // N_head)), so each is (batch, elements, heads, head_dim), calls nn.dot_product_attention(q, k, v) with no scale, mask or bias, adds the queries back (a + q) and reshapes to (batch, elements, N_dim) before an optional LayerNorm and a residual ReLU Dense; SAB, ISAB (learned inducing points) and PMA (learned seeds) are MABs over sets
# why: correct: flax.linen.dot_product_attention expects exactly the (batch, length, heads, head_dim) layout DenseGeneral produces and scales the query by 1/sqrt(head_dim) itself, normalising over the keys; sets need no mask (every element is real) and no causal structure; the residual a + q follows the paper's H = LayerNorm(X + Multihead(X, Y, Y)) on the projected queries
# looks-like: ATT003, ATT005
# source: https://github.com/Ph03n1xdust/SetTransformer-jax https://github.com/Ph03n1xdust/SetTransformer-jax/commit/39fe5f09e21c2e80805cb6add3f4ebbbbbaf9697 st_modules.py
import flax.linen as nn
import jax.numpy as jnp
from flax.linen import DenseGeneral, LayerNorm


class MAB(nn.Module):
    """Multihead Attention Block: N_dim output width, N_head heads (a divisor of N_dim)."""

    N_dim: int
    N_head: int
    ln: bool = False

    @nn.compact
    def __call__(self, x, y):
        N_batch, N_elements = x.shape[0], x.shape[1]
        dim_split = self.N_dim // self.N_head
        kernel_init = nn.initializers.variance_scaling(scale=1 / 3, mode="fan_in", distribution="uniform")

        q = DenseGeneral(features=(self.N_head, dim_split), kernel_init=kernel_init)(x)
        k = DenseGeneral(features=(self.N_head, dim_split), kernel_init=kernel_init)(y)
        v = DenseGeneral(features=(self.N_head, dim_split), kernel_init=kernel_init)(y)

        a = nn.dot_product_attention(q, k, v)

        o = (a + q).reshape(N_batch, N_elements, self.N_dim)
        if self.ln:
            o = LayerNorm()(o)
        o = o + nn.activation.relu(DenseGeneral(self.N_dim, kernel_init=kernel_init)(o))
        if self.ln:
            o = LayerNorm()(o)
        return o


class SAB(nn.Module):
    N_dim: int
    N_head: int
    ln: bool = False

    @nn.compact
    def __call__(self, x):
        return MAB(N_dim=self.N_dim, N_head=self.N_head, ln=self.ln)(x, x)


class ISAB(nn.Module):
    N_dim: int
    N_head: int
    N_induced: int
    ln: bool = False

    @nn.compact
    def __call__(self, x):
        N_batch = x.shape[0]
        i = self.param("induced_points", nn.initializers.xavier_uniform(), (1, self.N_induced, self.N_dim))
        i = jnp.repeat(i, N_batch, axis=0).reshape((N_batch, self.N_induced, self.N_dim))
        h = MAB(N_dim=self.N_dim, N_head=self.N_head, ln=self.ln)(i, x)
        return MAB(N_dim=self.N_dim, N_head=self.N_head, ln=self.ln)(x, h)


class PMA(nn.Module):
    N_dim: int
    N_head: int
    N_seed: int
    ln: bool = False

    @nn.compact
    def __call__(self, x):
        N_batch = x.shape[0]
        s = self.param("seeds", nn.initializers.xavier_uniform(), (1, self.N_seed, self.N_dim))
        s = jnp.repeat(s, N_batch, axis=0).reshape((N_batch, self.N_seed, self.N_dim))
        return MAB(N_dim=self.N_dim, N_head=self.N_head, ln=self.ln)(s, x)
