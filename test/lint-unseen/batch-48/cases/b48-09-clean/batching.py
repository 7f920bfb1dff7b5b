import torch


def pad_atoms(atom_feats: torch.Tensor, spans, max_atoms: int, device, allow_self: bool = True):
    """Stacks the molecules of a batch into (B, max_atoms, F) and returns a (B, max_atoms, max_atoms)
    pair mask that is 1 when both atoms exist (and, if allow_self is False, the atoms differ)."""
    n_feats = atom_feats.size(1)
    rows, masks = [], []
    for start, count in spans:
        mol = atom_feats.narrow(0, start, count)
        pad = max_atoms - count
        present = torch.ones(count, device=device)
        if pad > 0:
            present = torch.cat([present, torch.zeros(pad, device=device)])
            mol = torch.cat([mol, torch.zeros(pad, n_feats, device=device)])
        rows.append(mol)
        pair = present[None, :].repeat(max_atoms, 1) * present[:, None]
        if not allow_self:
            pair.fill_diagonal_(0)
        masks.append(pair)
    return torch.stack(rows), torch.stack(masks).byte()


def unpad_atoms(batched: torch.Tensor, spans) -> torch.Tensor:
    return torch.cat([batched[i, :count] for i, (_, count) in enumerate(spans)], dim=0)
