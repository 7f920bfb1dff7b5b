import torch


def get_pad_mask(inputs: torch.Tensor, pad_token_id: int) -> torch.Tensor:
    assert len(inputs.shape) == 2, "Inputs must be matrix"
    return inputs == pad_token_id  # (B, T), True at padding


def get_sub_mask(inputs: torch.Tensor) -> torch.Tensor:
    T = inputs.shape[1]
    mask = torch.ones(T, T).to(inputs.device)
    mask = torch.triu(mask).transpose(0, 1).float()  # 1 on and below the diagonal
    mask = mask.masked_fill(mask == 0, float("-inf"))
    return mask.masked_fill(mask == 1, float(0.0))  # additive (T, T)
