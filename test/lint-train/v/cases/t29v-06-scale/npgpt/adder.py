"""Grokking experiment: teach the NumPy GPT to add two n-digit numbers."""
import numpy as np

from .gpt import GPT

NDIGIT = 2


def make_example(rng, ndigit=NDIGIT):
    a, b = rng.integers(0, 10 ** ndigit, size=2)
    c = a + b
    astr = f"{a:0{ndigit}d}"
    bstr = f"{b:0{ndigit}d}"
    cstr = f"{c:0{ndigit + 1}d}"[::-1]  # the sum is written reversed, as in minGPT's adder
    digits = [int(s) for s in astr + bstr + cstr]
    x = np.array(digits[:-1])
    y = np.array(digits[1:])
    y[: ndigit * 2 - 1] = -1  # only the sum digits are predicted
    return x, y


def build_model():
    vocab_size = 10
    block_size = NDIGIT * 3 + 1 - 1
    return GPT(n_layers=1, n_heads=4, n_embd=64, vocab_size=vocab_size, block_size=block_size)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    model = build_model()
    xs, ys = zip(*[make_example(rng) for _ in range(8)])
    logits = model(np.stack(xs))
    print(logits.shape)
