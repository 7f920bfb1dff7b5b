import torch

# Convention here: True means "may attend", False means "suppress".


def padding_mask(tokens: torch.Tensor, pad_id: int) -> torch.Tensor:
    return (tokens != pad_id).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, L)


def causal_mask(n: int, device=None) -> torch.Tensor:
    return torch.ones(n, n, dtype=torch.bool, device=device).tril().view(1, 1, n, n)


def decoder_mask(tokens: torch.Tensor, pad_id: int) -> torch.Tensor:
    return padding_mask(tokens, pad_id) & causal_mask(tokens.size(1), tokens.device)
