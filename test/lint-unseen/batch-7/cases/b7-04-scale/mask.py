import torch


def padding_mask(mask: torch.Tensor):
    # mask: (B, T) from the tokenizer, 1.0 at real tokens, 0.0 at padding -> additive (B, 1, 1, T)
    mask = torch.where(mask == 0.0, float("-inf"), 0.0)
    return mask.unsqueeze(1).unsqueeze(2)


def target_mask(sequence_length: int = 200):
    mask = torch.triu(torch.ones((sequence_length, sequence_length)), diagonal=1)
    return torch.where(mask == 1.0, float("-inf"), mask)
