from __future__ import annotations

from notes.attention import attention


def layer_norm(vector: list[float], eps: float = 1e-6) -> list[float]:
    mean = sum(vector) / len(vector)
    variance = sum((value - mean) ** 2 for value in vector) / len(vector)
    return [(value - mean) / (variance + eps) ** 0.5 for value in vector]


def transformer_block(query: list[float], keys: list[list[float]], values: list[list[float]]) -> dict[str, list[float]]:
    attended, weights = attention(query, keys, values)
    normalized = layer_norm([q + a for q, a in zip(query, attended)])
    ff = [max(0.0, value) * 0.5 + value * 0.1 for value in normalized]
    return {"attention_weights": weights, "output": [n + f for n, f in zip(normalized, ff)]}
