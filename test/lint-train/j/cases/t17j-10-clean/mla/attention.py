# case: t17j-10-clean
# modelled-on: ghubnerr/attention-mechanisms https://github.com/ghubnerr/attention-mechanisms/commit/a429a930fe16bd0b57616bf02aa620985b3f4933
# label: correct
# class: clean
# pattern: a Flax multi-latent attention (DeepSeek-V2 style): keys and values are up-projected from a compressed latent, each head's query and key are the concatenation of a content part (head_dim) and a rotary part (rope_head_dim), the scale 1 / sqrt(head_dim + rope_head_dim) is set in setup from a config module, the scores are jax.lax.dot_general over the feature axis (no explicit key transpose) times that scale, a float mask whose documented meaning is 1 = masked is added as mask * -1e9, nn.softmax runs over axis=-1 and a second dot_general applies the weights to the values
# why: correct: the dot product runs over head_dim + rope_head_dim features (content and rotary parts are concatenated before the product), so that sum is the d_k of the scale, as in the DeepSeek-V2 paper; dot_general's contracting dims (3, 3) with batch dims (0, 1) give (batch, heads, q, k) directly; the mask is 1 on forbidden positions and is multiplied by -1e9 before being added; the softmax is over the keys
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/ghubnerr/attention-mechanisms https://github.com/ghubnerr/attention-mechanisms/commit/a429a930fe16bd0b57616bf02aa620985b3f4933 attention_mechanisms/mla/mla.py, attention_mechanisms/configs/deepseekv2mini_config.py
from typing import Optional

import flax.linen as nn
import jax
import jax.numpy as jnp

from mla.config import MLAConfig
from mla.rope import apply_rope


class MultiLatentAttention(nn.Module):
    config: MLAConfig

    def setup(self):
        c = self.config
        self.scale = 1.0 / jnp.sqrt(c.head_dim + c.rope_head_dim)
        self.W_DKV = nn.Dense(c.compressed_dim_kv, use_bias=False)
        self.W_UK = nn.Dense(c.head_dim * c.num_heads, use_bias=False)
        self.W_UV = nn.Dense(c.head_dim * c.num_heads, use_bias=False)
        self.W_DQ = nn.Dense(c.compressed_dim_q, use_bias=False)
        self.W_UQ = nn.Dense(c.head_dim * c.num_heads, use_bias=False)
        self.W_QR = nn.Dense(c.num_heads * c.rope_head_dim, use_bias=False)
        self.W_KR = nn.Dense(c.rope_head_dim, use_bias=False)
        self.W_O = nn.Dense(c.hidden_size, use_bias=False)

    def __call__(self, hidden, mask: Optional[jnp.ndarray] = None):
        """hidden: (batch, seq, hidden); mask: (batch, 1, seq, seq), 1 = masked out."""
        c = self.config
        b, s, _ = hidden.shape
        c_kv = self.W_DKV(hidden)
        k_c = self.W_UK(c_kv).reshape(b, s, c.num_heads, c.head_dim)
        v = self.W_UV(c_kv).reshape(b, s, c.num_heads, c.head_dim)
        c_q = self.W_DQ(hidden)
        q_c = self.W_UQ(c_q).reshape(b, s, c.num_heads, c.head_dim)
        q_r = self.W_QR(c_q).reshape(b, s, c.num_heads, c.rope_head_dim)
        k_r = self.W_KR(hidden).reshape(b, s, 1, c.rope_head_dim)
        q_r, k_r = apply_rope(q_r, k_r)
        k_r = jnp.broadcast_to(k_r, (b, s, c.num_heads, c.rope_head_dim))

        q = jnp.transpose(jnp.concatenate([q_c, q_r], axis=-1), (0, 2, 1, 3))
        k = jnp.transpose(jnp.concatenate([k_c, k_r], axis=-1), (0, 2, 1, 3))
        v = jnp.transpose(v, (0, 2, 1, 3))

        scores = jax.lax.dot_general(q, k, dimension_numbers=(((3,), (3,)), ((0, 1), (0, 1)))) * self.scale
        if mask is not None:
            mask = jnp.repeat(jnp.broadcast_to(mask, (b, 1, s, k.shape[2])), c.num_heads, axis=1)
            scores += mask * -1e9
        probs = nn.softmax(scores, axis=-1).astype(jnp.float32)
        out = jax.lax.dot_general(probs, v, dimension_numbers=(((3,), (2,)), ((0, 1), (0, 1))))
        out = out.transpose(0, 2, 1, 3).reshape(b, s, c.num_heads * c.head_dim)
        return self.W_O(out)
