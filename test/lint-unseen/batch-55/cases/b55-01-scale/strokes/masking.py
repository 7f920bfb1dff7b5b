import torch
from einops import rearrange, repeat
from torch import Tensor


def text_padding_mask(chars: Tensor, repeats: int = 1) -> Tensor:
    """1.0 where the character id is the padding id, 0.0 elsewhere, as (batch, 1, 1, length)."""
    pad = torch.eq(chars, 0).float()
    pad = rearrange(pad, "b t -> b 1 1 t")
    return repeat(pad, "b 1 1 t -> b 1 1 (t r)", r=repeats)


def beta_schedule(steps: int = 60, start: float = 1e-4, end: float = 0.02, device=None) -> Tensor:
    return torch.linspace(start, end, steps, device=device)
