import torch


def generate_mask_sequence(size, device="cpu"):
    """Keep mask of shape 1 x size x size: False on the future time steps."""
    x = torch.ones((size, size), device=device)
    x = torch.triu(x, diagonal=1)
    return x.unsqueeze(0) == 0


def generate_mask_pad(length, shape, device="cpu"):
    """Keep mask over the query rows, B x seq_len x 1: True for the first length[i] rows."""
    batch_size, seq_len = shape[0], shape[1]
    x = torch.zeros((batch_size, seq_len), device=device)
    for i in range(batch_size):
        x[i, : length[i]] = 1
    return x.unsqueeze(-1) == 1
