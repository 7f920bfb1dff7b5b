import torch


def generate_causal_mask(seq_len):
    # (1, 1, T, T), True above the diagonal = a future position
    return torch.triu(torch.ones((seq_len, seq_len)), diagonal=1).unsqueeze(0).unsqueeze(1).to(bool)
