# case: t44ff-10-clean
# modelled-on: ZhaXionghui/llama3-from-scratch-numpy_and_lora-fine-tune https://github.com/ZhaXionghui/llama3-from-scratch-numpy_and_lora-fine-tune/commit/6a819d0a2374f8cdd0e1d11e7d898e8e8113c8fa
# label: correct
# class: clean
# pattern: Llama 3 inference in NumPy with a preallocated KV cache (batch, max_len, kv_heads, head_dim) written at `start_pos:start_pos + L` and read back up to `start_pos + L`, grouped-query keys repeated with `np.repeat(axis=2)`, an additive causal mask built only when L > 1 as `concatenate([zeros((L, start_pos)), triu(full(-inf), k=1)], axis=1)`, softmax over the last axis (helpers in another module), and a generator that runs the prompt at position 0 and then one token per step
# why: correct: the mask puts the block of cached columns BEFORE the L x L triangle, so query i of the new block sees every cached key and the new keys up to itself (bottom-right alignment over start_pos + L keys); a decode step (L == 1) needs no mask; the scores (B, H, L, start_pos + L) are normalised over the keys; scale 1/sqrt(head_dim)
# looks-like: ATT001, ATT007, ATT008
# source: https://github.com/ZhaXionghui/llama3-from-scratch-numpy_and_lora-fine-tune https://github.com/ZhaXionghui/llama3-from-scratch-numpy_and_lora-fine-tune/commit/6a819d0a2374f8cdd0e1d11e7d898e8e8113c8fa llama3.py
import numpy as np

from .args import LlamaArgs
from .ops import apply_rope, repeat_kv, rope_table, silu, softmax


class RMSNorm:
    def __init__(self, weight, eps):
        self.weight, self.eps = weight, eps

    def forward(self, x):
        return x * self.weight / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + self.eps)


class GQAttention:
    def __init__(self, wq, wk, wv, wo, args: LlamaArgs):
        self.n_heads = args.n_heads
        self.n_kv = args.n_kv_heads
        self.rep = self.n_heads // self.n_kv
        self.hd = args.dim // args.n_heads
        self.wq, self.wk, self.wv, self.wo = wq.T, wk.T, wv.T, wo.T
        shape = (args.max_batch_size, args.max_seq_len, self.n_kv, self.hd)
        self.cache_k = np.zeros(shape)
        self.cache_v = np.zeros(shape)

    def forward(self, x, start_pos, mask, table):
        B, L, _ = x.shape
        xq = (x @ self.wq).reshape(B, L, self.n_heads, self.hd)
        xk = (x @ self.wk).reshape(B, L, self.n_kv, self.hd)
        xv = (x @ self.wv).reshape(B, L, self.n_kv, self.hd)
        xq, xk = apply_rope(xq, xk, table)
        self.cache_k[:B, start_pos:start_pos + L] = xk
        self.cache_v[:B, start_pos:start_pos + L] = xv
        keys = repeat_kv(self.cache_k[:B, :start_pos + L], self.rep)
        vals = repeat_kv(self.cache_v[:B, :start_pos + L], self.rep)
        q = xq.transpose(0, 2, 1, 3)
        k = keys.transpose(0, 2, 1, 3)
        v = vals.transpose(0, 2, 1, 3)
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(self.hd)
        if mask is not None:
            scores = scores + mask[None, None, :, :]
        out = softmax(scores) @ v
        return out.transpose(0, 2, 1, 3).reshape(B, L, -1) @ self.wo


class NumpyLlama:
    def __init__(self, weights, args: LlamaArgs):
        self.args = args
        self.embed = weights["tok_embeddings.weight"]
        self.table = rope_table(args.dim // args.n_heads, args.max_seq_len, args.rope_theta)
        self.layers = []
        for i in range(args.n_layers):
            w = lambda name: weights[f"layers.{i}.{name}.weight"]
            attn = GQAttention(w("attention.wq"), w("attention.wk"), w("attention.wv"), w("attention.wo"), args)
            ffn = (w("feed_forward.w1").T, w("feed_forward.w3").T, w("feed_forward.w2").T)
            self.layers.append((RMSNorm(w("attention_norm"), args.norm_eps), attn, RMSNorm(w("ffn_norm"), args.norm_eps), ffn))
        self.norm = RMSNorm(weights["norm.weight"], args.norm_eps)
        self.out = weights["output.weight"].T

    def forward(self, ids, start_pos):
        _, L = ids.shape
        h = self.embed[ids]
        mask = None
        if L > 1:
            tri = np.triu(np.full((L, L), float("-inf")), k=1)
            mask = np.concatenate([np.zeros((L, start_pos)), tri], axis=1)
        table = self.table[start_pos:start_pos + L]
        for n1, attn, n2, (gate, up, down) in self.layers:
            h = h + attn.forward(n1.forward(h), start_pos, mask, table)
            z = n2.forward(h)
            h = h + (silu(z @ gate) * (z @ up)) @ down
        return self.norm.forward(h)[:, [-1], :] @ self.out

    def generate(self, ids, steps):
        pos, feed = 0, ids
        for _ in range(steps):
            logits = self.forward(feed, pos)
            pos += feed.shape[1]
            feed = logits[:, -1, :].argmax(-1, keepdims=True)
            yield feed
