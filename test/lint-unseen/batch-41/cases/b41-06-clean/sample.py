import mlx.core as mx
import numpy as np

from mlx_decoder import Decoder


def top_k_probs(logits, k, temperature):
    logits = logits / max(temperature, 1e-6)
    cutoff = np.sort(logits, axis=-1)[:, -k][:, None]
    logits = np.where(logits < cutoff, -np.inf, logits)
    logits = logits - logits.max(axis=-1, keepdims=True)
    probs = np.exp(logits)
    return probs / probs.sum(axis=-1, keepdims=True)


def generate(model: Decoder, prompt: np.ndarray, steps: int, k=16, temperature=1.0, seed=0):
    rng = np.random.default_rng(seed)
    cache = model.new_cache()
    last = np.array(model(mx.array(prompt), cache=cache)[:, -1])
    tokens = [prompt]
    for _ in range(steps):
        probs = top_k_probs(last, k, temperature)
        nxt = np.array([[rng.choice(probs.shape[-1], p=row)] for row in probs])
        tokens.append(nxt)
        last = np.array(model(mx.array(nxt), cache=cache)[:, -1])
    return np.concatenate(tokens, axis=1)
