# case: b11-13-clean
# modelled-on: atroyanovsky/jax-transformer https://github.com/atroyanovsky/jax-transformer/commit/b5df9c06adc22a738984c55b5bf6e1c763a44bcf
# label: correct
# class: clean
# pattern: a stateless JAX transformer for a copy task: parameters live in nested dicts, sizes in a settings class in another module; heads are split by reshaping (batch, seq, d_model) to (batch, seq, heads, depth) and swapaxes(1, 2); attention computes jnp.matmul(Q, jnp.swapaxes(K, -2, -1)) / jnp.sqrt(Q.shape[-1]) and jax.nn.softmax with its default axis, then merges heads with the inverse swap
# why: correct: after the split the tensors are (batch, heads, seq, depth), so swapaxes(K, -2, -1) swaps sequence and depth of the keys and Q.shape[-1] is the per-head depth; jax.nn.softmax defaults to axis=-1, the key axis of the (batch, heads, seq, seq) scores; the encoder of a copy task needs no causal mask; what a naive linter could misread: ATT001 (a softmax without an axis on 4-D scores), ATT005 (a swapaxes on the keys), ATT004 (a scale read off the query shape)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/atroyanovsky/jax-transformer https://github.com/atroyanovsky/jax-transformer/commit/b5df9c06adc22a738984c55b5bf6e1c763a44bcf src/models/transformer.py
import jax
import jax.numpy as jnp

from settings import Settings


class Transformer:
    def __init__(self, cfg=Settings):
        self.d_model = cfg.D_MODEL
        self.num_heads = cfg.NUM_HEADS
        self.num_layers = cfg.NUM_LAYERS

    def attention(self, Q, K, V):
        # Q, K, V: (batch, heads, seq_len, depth)
        d_k = Q.shape[-1]
        scores = jnp.matmul(Q, jnp.swapaxes(K, -2, -1)) / jnp.sqrt(d_k)
        probabilities = jax.nn.softmax(scores)
        return jnp.matmul(probabilities, V)

    def split_heads(self, x):
        depth = x.shape[-1] // self.num_heads
        x = jnp.reshape(x, x.shape[:2] + (self.num_heads, depth))
        return x.swapaxes(1, 2)

    def merge_heads(self, x):
        x = x.swapaxes(1, 2)
        return jnp.reshape(x, (x.shape[0], x.shape[1], -1))

    def multi_head_attention(self, x, p):
        Q = self.split_heads(x @ p["W_q"] + p["b_q"])
        K = self.split_heads(x @ p["W_k"] + p["b_k"])
        V = self.split_heads(x @ p["W_v"] + p["b_v"])
        out = self.merge_heads(self.attention(Q, K, V))
        return out @ p["W_o"] + p["b_o"]

    def layer_norm(self, x, p, eps=1e-6):
        mu = jnp.mean(x, 2, keepdims=True)
        sigma = jnp.std(x, 2, keepdims=True)
        return (x - mu) / (sigma + eps) * p["gamma"] + p["beta"]

    def __call__(self, params, tokens):
        x = params["embedding"][tokens] * jnp.sqrt(self.d_model)
        for layer in params["layers"]:
            x = self.layer_norm(x + self.multi_head_attention(x, layer["attn"]), layer["norm1"])
            h = jax.nn.relu(x @ layer["ffn"]["W1"] + layer["ffn"]["b1"]) @ layer["ffn"]["W2"] + layer["ffn"]["b2"]
            x = self.layer_norm(x + h, layer["norm2"])
        logits = x @ params["out"]
        return jax.nn.log_softmax(logits)
