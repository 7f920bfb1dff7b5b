import torch
import torch.nn as nn


class QueryCompetition(nn.Module):
    """Inverted cross-attention: each input token distributes itself over the latent queries (softmax over
    queries), then every latent takes a normalised weighted mean of the tokens."""

    def __init__(self, dim, n_latents):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, dim))
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.scale = dim ** -0.5

    def forward(self, x):
        # x: (B, N, dim)
        k, v = self.to_k(x), self.to_v(x)
        logits = torch.einsum("ld,bnd->bln", self.latents, k) * self.scale  # (B, L, N)
        w = logits.softmax(dim=-2)  # over latents
        w = w / w.sum(dim=-1, keepdim=True).clamp_min(1e-6)
        return torch.einsum("bln,bnd->bld", w, v)
