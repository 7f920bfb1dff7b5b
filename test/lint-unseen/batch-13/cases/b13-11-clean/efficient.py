# case: b13-11-clean
# modelled-on: rongcuid/flax-transformer https://github.com/rongcuid/flax-transformer/commit/752a48ff52fc7a404e2dab24e48b2f291af24da6
# label: correct
# class: clean
# pattern: a Flax encoder with "efficient" (linear) attention after Shen et al.: keys go through phi_k = softmax over the SEQUENCE axis (-2) and queries through phi_q = softmax over the feature axis (-1) (or elu + 1 for both), the global context is einsum("blk,blv->bkv", phi_k(K), V) and the output einsum with phi_q(Q); padding is masked by a boolean [B, LK] mask that is True at padding, repeated over the features with einops, which writes -1e10 into the padded KEYS and 0 into the padded VALUES before the kernels; heads are mapped with jax.vmap over axis 2
# why: correct: in this factorised attention there is no (LQ, LK) score matrix; the softmax over axis -2 of the keys normalises over key positions, so a key feature of -1e10 gets zero weight there (and elu(-1e10) + 1 is 0 in the elu kernel), and the zeroed values remove the padded positions from the context sum; True marks padding, as the docstring says, and jnp.where puts the fill where it is True; no softmax over the wrong axis: -2 of [B, LK, HK] is the key axis for phi_k and -1 is the feature axis for phi_q, as the paper prescribes; what a naive linter could misread: ATT001 (softmax over -2), ATT002 (a True-means-masked mask as where's condition), ATT007 (-1e10 written into keys, 0 into values), ATT006 (a mask applied to values), ATT003 (no 1/sqrt(d) scale in linear attention)
# looks-like: ATT001, ATT002, ATT003, ATT006, ATT007
# source: https://github.com/rongcuid/flax-transformer https://github.com/rongcuid/flax-transformer/commit/752a48ff52fc7a404e2dab24e48b2f291af24da6 modules.py
import einops as e
import jax
from jax import numpy as jnp
from flax import linen as nn


def efficient_dot_attention_init(kernel: str = "elu"):
    if kernel == "elu":
        def phi_q(x):
            return nn.elu(x) + 1.0

        phi_k = phi_q
    elif kernel == "softmax":
        def phi_q(x):
            return nn.softmax(x, -1)

        def phi_k(x):
            return nn.softmax(x, -2)
    else:
        raise ValueError(f"Invalid kernel {kernel}")

    def forward(query, key, value, mask=None):
        """query [B, LQ, HK], key [B, LK, HK], value [B, LK, HV], mask [B, LK] with True = padding."""
        K, V = key, value
        if mask is not None:
            mask_key = e.repeat(mask, "b lk -> b lk h", h=key.shape[-1])
            mask_value = e.repeat(mask, "b lk -> b lk h", h=value.shape[-1])
            K = jnp.where(mask_key, -1e10, K)
            V = jnp.where(mask_value, 0.0, V)
        kv = jnp.einsum("blk,blv->bkv", phi_k(K), V)  # [B, HK, HV]
        return jnp.einsum("blk,bkv->blv", phi_q(query), kv)  # [B, LQ, HV]

    return jax.jit(forward)


class EfficientMultiHeadAttention(nn.Module):
    d_model: int
    n_heads: int
    kernel: str = "elu"

    @nn.compact
    def __call__(self, query, key=None, value=None, mask=None):
        attn = jax.vmap(efficient_dot_attention_init(self.kernel), (2, 2, 2, None), 2)
        key = query if key is None else key
        value = query if value is None else value
        init = nn.initializers.xavier_normal()
        q = nn.Dense(self.d_model, kernel_init=init, name="Q_proj")(query)
        k = nn.Dense(self.d_model, kernel_init=init, name="K_proj")(key)
        v = nn.Dense(self.d_model, kernel_init=init, name="V_proj")(value)
        split = lambda t: e.rearrange(t, "b l (n h) -> b l n h", n=self.n_heads)
        x = attn(split(q), split(k), split(v), mask)
        return e.rearrange(x, "b l n h -> b l (n h)", n=self.n_heads)
