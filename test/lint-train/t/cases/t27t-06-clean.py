# case: t27t-06-clean
# modelled-on: ralphite/myai https://github.com/ralphite/myai/commit/5503a9558f368edd3e87d4bf5b14237dc8eda7d0
# label: correct
# class: clean
# pattern: GPT-2 small forward pass in plain NumPy over the Hugging Face weights, one unbatched sequence: heads split with np.split into (n_head, T, hs); causal_mask = (1 - np.tri(T, dtype=x.dtype)) * -1e10 added to q @ swapaxes(k) / sqrt(hs); a hand-written softmax exp(x) / sum(exp(x), axis=-1); greedy decoding re-runs the whole prefix (no cache)
# why: correct: np.tri is 1 on and below the diagonal (the keys a query may see), so 1 - np.tri is 1 exactly on the future keys and times -1e10 gives the additive causal mask; -1e10 is representable in float32 and exp of it is 0, while every row keeps its diagonal; the softmax is over the key axis; without a cache the square mask is complete
# looks-like: ATT002, ATT007
# source: https://github.com/ralphite/myai https://github.com/ralphite/myai/commit/5503a9558f368edd3e87d4bf5b14237dc8eda7d0 reprod/gpt2_numpy/modeling_np.py
from dataclasses import dataclass
from typing import Mapping

import numpy as np


@dataclass(frozen=True)
class GPT2SmallConfig:
    n_layer: int = 12
    n_embd: int = 768
    n_head: int = 12


class NumPyGPT2:
    def __init__(self, config: GPT2SmallConfig, params: Mapping[str, np.ndarray]) -> None:
        self.config = config
        self.params = params

    def __call__(self, input_ids: np.ndarray) -> np.ndarray:
        """input_ids: (T,) int64 -> logits (T, V)."""
        p = self.params
        x = p["transformer.wte.weight"][input_ids] + p["transformer.wpe.weight"][np.arange(len(input_ids))]
        for i in range(self.config.n_layer):
            prefix = f"transformer.h.{i}."
            bp = {k[len(prefix):]: v for k, v in p.items() if k.startswith(prefix)}
            x = x + self.mha(self.layer_norm(x, bp["ln_1.weight"], bp["ln_1.bias"]), bp)
            x = x + self.mlp(self.layer_norm(x, bp["ln_2.weight"], bp["ln_2.bias"]), bp)
        x = self.layer_norm(x, p["transformer.ln_f.weight"], p["transformer.ln_f.bias"])
        return x @ p["lm_head.weight"].T

    def mha(self, x, bp):
        """Multi-head causal self-attention; x: (T, C)."""
        T = x.shape[-2]
        q, k, v = np.split(x @ bp["attn.c_attn.weight"] + bp["attn.c_attn.bias"], 3, axis=-1)
        q_h = np.array(np.split(q, self.config.n_head, axis=-1))  # (H, T, hs)
        k_h = np.array(np.split(k, self.config.n_head, axis=-1))
        v_h = np.array(np.split(v, self.config.n_head, axis=-1))
        causal_mask = (1 - np.tri(T, dtype=x.dtype)) * -1e10  # -1e10 above the diagonal
        out = self.attention(q_h, k_h, v_h, causal_mask)       # (H, T, hs)
        out = np.hstack(out)                                   # (T, C)
        return out @ bp["attn.c_proj.weight"] + bp["attn.c_proj.bias"]

    def attention(self, q, k, v, mask):
        """q, k, v: (H, T, hs); mask: (T, T), -1e10 on the keys after each query."""
        d_k = k.shape[-1]
        return self.softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k) + mask) @ v

    def mlp(self, x, bp):
        h = self.gelu(x @ bp["mlp.c_fc.weight"] + bp["mlp.c_fc.bias"])
        return h @ bp["mlp.c_proj.weight"] + bp["mlp.c_proj.bias"]

    @staticmethod
    def layer_norm(x, g, b, eps: float = 1e-5):
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.var(x, axis=-1, keepdims=True)
        return g * (x - mean) / np.sqrt(var + eps) + b

    @staticmethod
    def softmax(x):
        exp_x = np.exp(x)
        return exp_x / np.sum(exp_x, axis=-1, keepdims=True)

    @staticmethod
    def gelu(x):
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def greedy_generate(model: NumPyGPT2, input_ids: np.ndarray, max_len: int) -> np.ndarray:
    while len(input_ids) < max_len:
        logits = model(input_ids)               # whole prefix every step
        input_ids = np.append(input_ids, int(np.argmax(logits[-1])))
    return input_ids
