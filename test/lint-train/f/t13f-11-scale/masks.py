import torch


def make_src_mask(src: torch.Tensor, pad_idx: int = 1):
    # True where the source token is padding (to be hidden)
    return (src == pad_idx).unsqueeze(1).unsqueeze(2)


def make_tgt_mask(tgt: torch.Tensor, pad_idx: int = 1):
    _, n = tgt.shape
    pad = (tgt == pad_idx).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, n)
    future = torch.triu(torch.ones((n, n), dtype=torch.bool, device=tgt.device), diagonal=1).unsqueeze(0).unsqueeze(0)
    return pad | future
