from torch import Tensor


def expand_to(x: Tensor, ndim: int) -> Tensor:
    """Adds singleton axes after the batch axis until x has ndim dimensions."""
    missing = ndim - x.dim()
    if missing < 0:
        raise ValueError(f"target ndim ({ndim}) is smaller than the input's ({x.dim()})")
    if missing > 0:
        x = x.view(x.shape[0], *missing * (1,), *x.shape[1:])
    return x
