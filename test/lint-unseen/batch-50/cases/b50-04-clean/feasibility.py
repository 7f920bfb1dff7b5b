import torch


def infeasible_moves(demand: torch.Tensor, load: torch.Tensor, at: torch.Tensor) -> torch.Tensor:
    """demand (B, N) with the depot in column 0, load (B,), at (B,) -> bool (B, N), True = move not allowed."""
    served = demand == 0
    too_big = demand > load.unsqueeze(1)
    empty = (load == 0).unsqueeze(1).expand_as(demand)
    out = served | too_big | empty
    open_orders = demand[:, 1:].sum(dim=1) > 0
    out[:, 0] = (at == 0) & open_orders
    out[~open_orders] = True
    out[~open_orders, 0] = False
    return out
