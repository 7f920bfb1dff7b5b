import torch


class KVCache:
    """Preallocated keys and values, (batch, heads, max_len, head_dim) per layer."""

    def __init__(self, layers, batch, heads, head_dim, max_len, device="cuda"):
        self.length = 0
        self.keys = [torch.empty(batch, heads, max_len, head_dim, device=device) for _ in range(layers)]
        self.values = [torch.empty(batch, heads, max_len, head_dim, device=device) for _ in range(layers)]

    def write(self, layer, k, v):
        start, n = self.length, k.size(2)
        self.keys[layer][:, :, start : start + n, :] = k
        self.values[layer][:, :, start : start + n, :] = v
        return self.keys[layer][:, :, : start + n, :], self.values[layer][:, :, : start + n, :]
