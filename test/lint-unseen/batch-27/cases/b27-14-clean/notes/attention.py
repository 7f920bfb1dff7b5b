# case: b27-14-clean
# modelled-on: YutoTerashima/transformer-from-scratch-notes https://github.com/YutoTerashima/transformer-from-scratch-notes/commit/6fdf3413540df9523597e09ac3e41e0e5b4935bd
# label: correct
# class: clean
# pattern: study notes that build attention in plain Python lists (no tensor library): dot products of one query with every key divided by math.sqrt(len(query)), a max-shifted softmax over the list of scores, a weighted sum of the values, used by a list-based transformer block in a second module; a third module trains a tiny IMDB classifier with nn.TransformerEncoder (batch_first) given src_key_padding_mask=ids.eq(0) and mean-pools with h.masked_fill(mask.unsqueeze(-1), 0) divided by the count of real tokens
# why: correct: len(query) is the query's (and key's) width, so the scale is 1/sqrt(d); the softmax is over the scores of one query against all keys, i.e. the key axis; ids.eq(0) is True on padding, which is what src_key_padding_mask means; the masked_fill with 0 acts on encoder outputs for mean pooling, after attention, not on scores or weights
# looks-like: ATT001, ATT002, ATT003, ATT004, ATT006, ATT007
# source: https://github.com/YutoTerashima/transformer-from-scratch-notes https://github.com/YutoTerashima/transformer-from-scratch-notes/commit/6fdf3413540df9523597e09ac3e41e0e5b4935bd src/transformer_from_scratch_notes/attention.py
from __future__ import annotations

import math


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def softmax(values: list[float]) -> list[float]:
    peak = max(values)
    exps = [math.exp(value - peak) for value in values]
    total = sum(exps)
    return [value / total for value in exps]


def attention(query: list[float], keys: list[list[float]], values: list[list[float]]) -> tuple[list[float], list[float]]:
    scale = math.sqrt(len(query))
    weights = softmax([dot(query, key) / scale for key in keys])
    output = [sum(weight * value[i] for weight, value in zip(weights, values)) for i in range(len(values[0]))]
    return output, weights
