import torch


def square_subsequent_mask(size: int) -> torch.Tensor:
    allowed = (torch.triu(torch.ones(size, size)) == 1).transpose(0, 1)
    mask = allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, 0.0)
    return mask
