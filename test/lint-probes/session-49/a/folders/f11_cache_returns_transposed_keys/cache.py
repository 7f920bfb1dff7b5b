import torch


class TransposedKVCache:
    """Keeps keys as (B, H, D, S) and values as (B, H, S, D)."""

    def __init__(self, batch, heads, head_dim, max_len, device=None):
        self.k_t = torch.zeros(batch, heads, head_dim, max_len, device=device)
        self.v = torch.zeros(batch, heads, max_len, head_dim, device=device)
        self.pos = 0

    def update(self, k, v):
        t = k.shape[2]
        self.k_t[:, :, :, self.pos : self.pos + t] = k.transpose(-1, -2)
        self.v[:, :, self.pos : self.pos + t] = v
        self.pos += t
        return self.k_t[:, :, :, : self.pos], self.v[:, :, : self.pos]
