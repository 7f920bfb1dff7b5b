import torch
from torch.utils.data import default_collate


def dense_adjacency(pair_lists, n_atoms):
    """(molecules, n_atoms, n_atoms) booleans, True where two atoms share a bond."""
    mats = []
    for pairs in pair_lists:
        values = torch.ones(pairs.shape[0], dtype=torch.bool)
        mats.append(torch.sparse_coo_tensor(pairs.T, values, (n_atoms, n_atoms)).to_dense())
    return torch.stack(mats)


def collate_molecules(items):
    species, padding, adj, targets = default_collate(items)
    longest = int((~padding).sum(dim=1).max())
    return species[:, :longest], padding[:, :longest], adj[:, :longest, :longest], targets
