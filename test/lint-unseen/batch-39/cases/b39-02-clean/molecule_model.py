import torch
import torch.nn as nn

from distance_attention import BiasedSelfAttention
from power_law import LearnedPowerLaw


class DistanceBlock(nn.Module):
    def __init__(self, width, heads, dropout=0.1):
        super().__init__()
        self.bias = LearnedPowerLaw(heads)
        self.attn = BiasedSelfAttention(width, heads)
        self.norm_a = nn.LayerNorm(width)
        self.norm_b = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, 4 * width), nn.ReLU(), nn.Linear(4 * width, width))
        self.drop = nn.Dropout(dropout)

    def forward(self, h, dist, blocked, pad_fill):
        h = self.norm_a(h)
        h = h + self.drop(self.attn(h, blocked=blocked, bias=self.bias(dist)))
        h = self.norm_b(h)
        return h + self.drop(self.ff(h).masked_fill(pad_fill, 0.0))


class DistanceTransformer(nn.Module):
    def __init__(self, n_species, n_targets, width, heads, depth):
        super().__init__()
        self.width = width
        self.embed = nn.Embedding(n_species, width, padding_idx=0)
        self.blocks = nn.ModuleList(DistanceBlock(width, heads) for _ in range(depth))
        self.head = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, n_targets))

    def forward(self, species, padding, coords):
        n_mol, n_atoms = species.shape
        dist = torch.cdist(coords, coords)

        # True = this pair takes no weight: padding on either side, or an atom with itself
        pair_pad = (padding.unsqueeze(-1) | padding.unsqueeze(-2)).unsqueeze(1)
        self_pair = torch.eye(n_atoms, dtype=torch.bool, device=species.device)
        blocked = pair_pad | self_pair.expand_as(pair_pad)
        pad_fill = padding.unsqueeze(-1).expand(n_mol, n_atoms, self.width)

        h = self.embed(species)
        for block in self.blocks:
            h = block(h, dist, blocked, pad_fill)
        return self.head(h.mean(dim=1))
