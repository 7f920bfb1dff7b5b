import torch.nn as nn

from graph_ops import build_operator


class GraphBlock(nn.Module):
    def __init__(self, width, heads, kind, dropout=0.1, **op_kwargs):
        super().__init__()
        self.op = build_operator(kind, width, heads, **op_kwargs)
        self.pre_norm = nn.LayerNorm(width)
        self.post_norm = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.ReLU(), nn.Linear(4 * width, width))
        self.drop = nn.Dropout(dropout)

    def forward(self, h, adj, pad_fill):
        h0 = self.pre_norm(h)
        h1 = h0 + self.drop(self.op(h0, adj=adj))
        h1 = self.post_norm(h1)
        update = self.mlp(h1).masked_fill(pad_fill, 0.0)
        return h1 + self.drop(update)


class MolecularGraphTransformer(nn.Module):
    def __init__(self, n_species, n_targets, width, heads, depth, kind="masked_sdpa", dropout=0.1):
        super().__init__()
        self.width = width
        self.species = nn.Embedding(n_species, width, padding_idx=0)
        self.blocks = nn.ModuleList(GraphBlock(width, heads, kind, dropout) for _ in range(depth))
        self.final_norm = nn.LayerNorm(width)
        self.readout = nn.Linear(width, n_targets)

    def forward(self, species, padding, adj):
        batch, n_atoms = species.shape
        pad_fill = padding.unsqueeze(-1).expand(batch, n_atoms, self.width)

        h = self.species(species)
        for block in self.blocks:
            h = block(h, adj=adj.unsqueeze(1), pad_fill=pad_fill)

        return self.readout(self.final_norm(h).mean(dim=1))
