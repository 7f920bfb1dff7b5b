# case: b3-32-clean
# modelled-on: kingoflolz/mesh-transformer-jax https://github.com/kingoflolz/mesh-transformer-jax/commit/f8315e3003033b23f21d78361b288953064e0e76
# label: correct
# class: clean
# pattern: a Haiku transformer layer (bfloat16) with three paths: training with a -1e10 * (1 - tril) causal bias; a decode step that appends the new key/value to a fixed-length rolling cache (dropping the oldest) and masks the not-yet-filled left slots with -1e10 * (arange < masked_tokens); and a prefill of right-aligned context that adds both biases; scores come from einsum 'thd,Thd->htT', divided by sqrt(dim_per_head), softmax over the last axis
# why: the single decode query sits at the end of the rolling cache, so only the left padding needs masking and no causal mask is needed; the padding mask is True where masked and is multiplied by -1e10 (correct sign); -1e10 is finite in bfloat16 and float32; the scale is the head width
# looks-like: ATT001, ATT002, ATT005, ATT007, ATT008
# source: https://github.com/kingoflolz/mesh-transformer-jax https://github.com/kingoflolz/mesh-transformer-jax/commit/f8315e3003033b23f21d78361b288953064e0e76 mesh_transformer/layers.py
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


class TransformerLayerShard(hk.Module):
    def __init__(self, dim, heads, name=None):
        super().__init__(name=name)
        self.dim = dim
        self.heads = heads
        self.dim_per_head = dim // heads
        self.norm = hk.LayerNorm(-1, True, True)
        self.q = hk.Linear(dim, with_bias=False)
        self.v = hk.Linear(dim, with_bias=False)
        self.k = hk.Linear(dim, with_bias=False)
        self.o = hk.Linear(dim, with_bias=False)

    def self_attn(self, q, v, k, attn_bias):
        attention_logits = jnp.einsum("thd,Thd->htT", q, k)
        sqrt_key_size = np.sqrt(self.dim_per_head).astype(k.dtype)
        attention_logits = attention_logits / sqrt_key_size
        attention_logits += attn_bias
        attention_weights = jax.nn.softmax(attention_logits)
        attention_vec = jnp.einsum("htT,Thd->thd", attention_weights, v).reshape((-1, self.dim))
        return self.o(attention_vec)

    def qvk_proj(self, x):
        shape = x.shape[:-1] + (self.heads, self.dim_per_head)
        return self.q(x).reshape(shape), self.v(x).reshape(shape), self.k(x).reshape(shape)

    def __call__(self, x):
        x = self.norm(x)
        q, v, k = self.qvk_proj(x)
        seq_len = x.shape[0]
        causal_mask = np.tril(np.ones((seq_len, seq_len)))
        bias = -1e10 * (1.0 - causal_mask)
        return self.self_attn(q, v, k, bias)

    def decode_once(self, decode_state, x):
        """One new token against a fixed-length cache of the previous keys and values."""
        x = self.norm(x)
        assert x.shape[0] == 1
        q, v, k = self.qvk_proj(x)

        # add the new key / value at the end, drop the oldest slot
        v = jnp.concatenate((decode_state["v"], v), axis=0)[1:]
        k = jnp.concatenate((decode_state["k"], k), axis=0)[1:]

        tokens_decoded = decode_state["tokens_decoded"] + 1
        length = v.shape[0]
        masked_tokens = length - tokens_decoded
        attention_mask = jnp.arange(0, length) < masked_tokens  # True for empty slots
        bias = -1e10 * attention_mask

        out = self.self_attn(q, v, k, bias)
        return out, {"tokens_decoded": tokens_decoded, "k": k, "v": v}

    def get_init_decode_state(self, x, given_length):
        """Right-aligned context: the first full_length - given_length positions are padding."""
        x = self.norm(x)
        q, v, k = self.qvk_proj(x)
        full_length = x.shape[0]
        masked_tokens = full_length - given_length
        causal_mask = np.tril(np.ones((full_length, full_length)))
        bias = -1e10 * (1.0 - causal_mask)
        bias -= 1e10 * (jnp.arange(0, full_length) < masked_tokens)
        out = self.self_attn(q, v, k, bias)
        return out, {"k": k, "v": v, "tokens_decoded": given_length.astype(jnp.uint32)}
