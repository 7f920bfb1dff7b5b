import torch


def subsequent_mask(size, device="cpu"):
    # (triu(ones) == 0) is True strictly below the diagonal; transposed, it is True strictly above it
    return (torch.triu(torch.ones(size, size, dtype=torch.int, device=device)) == 0).transpose(0, 1)
