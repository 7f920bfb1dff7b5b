import torch


def mask_lengths(lengths, max_len=None, reverse=False):
    """[batch, max_len] masks from lengths; with reverse=True the mask is True past each length (the padding)."""
    if not max_len:
        max_len = int(torch.max(lengths).item())
    idxes = torch.arange(0, max_len, device=lengths.device).unsqueeze(0)
    masks = (idxes < lengths.unsqueeze(1)).byte()
    if reverse:
        masks = masks == 0
    return masks
