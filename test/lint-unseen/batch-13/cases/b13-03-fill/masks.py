import torch


def source_mask(src: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    # True where the source token is padding: masked_fill replaces the True positions
    return (src == pad_idx).unsqueeze(1)


def target_mask(tgt: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    # True where the key is padding or lies in the future (above the diagonal)
    pad = (tgt == pad_idx).unsqueeze(1)
    n = tgt.shape[1]
    future = torch.tril(torch.ones(n, n)).type(torch.ByteTensor) == 0
    return pad | future
