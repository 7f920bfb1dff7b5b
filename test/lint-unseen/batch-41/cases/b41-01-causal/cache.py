import torch


class LatentCache:
    """Preallocated store for the compressed KV latent and the single shared rotary key."""

    def __init__(self, batch, capacity, latent_dim, rope_dim, dtype=torch.float32, device="cpu"):
        self.latent = torch.empty(batch, capacity, latent_dim, dtype=dtype, device=device)
        self.rope_key = torch.empty(batch, 1, capacity, rope_dim, dtype=dtype, device=device)
        self.filled = 0

    def append(self, latent, rope_key):
        start, end = self.filled, self.filled + latent.shape[1]
        self.latent[:, start:end] = latent
        self.rope_key[:, :, start:end] = rope_key
        self.filled = end
        return self.latent[:, :end], self.rope_key[:, :, :end]
