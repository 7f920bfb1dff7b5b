from typing import Optional, Tuple

import torch
from einops import rearrange, repeat


def gather_rows(values: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """values: (b, n, ...); index: (b, n, k) -> (b, n, k, ...)."""
    b, n, k = index.shape
    flat = index.reshape(b, n * k)
    picked = values[torch.arange(b, device=values.device)[:, None], flat]
    return picked.reshape(b, n, k, *values.shape[2:])


def nearest_neighbors(coords: torch.Tensor, k: int, radius: float, causal: bool = False,
                      node_mask: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """Indices (b, n, k) of each node's k nearest other nodes and a mask, True for a usable neighbour.

    A node is never its own neighbour: the diagonal is removed first, so column j of row i
    stands for node j when j < i and for node j + 1 otherwise.
    """
    b, n, _ = coords.shape
    not_self = rearrange(~torch.eye(n, dtype=torch.bool, device=coords.device), "i j -> () i j")
    drop_diag = lambda t: t.masked_select(not_self).reshape(b, n, n - 1)

    ids = drop_diag(repeat(torch.arange(n, device=coords.device), "j -> b i j", b=b, i=n))
    dist = drop_diag((coords[:, :, None] - coords[:, None, :]).norm(dim=-1))
    far = torch.finfo(dist.dtype).max

    ranked = dist.clone()
    if causal:
        # with the diagonal gone, columns j >= i are nodes j + 1 > i: the later nodes
        later = torch.ones(n, n - 1, device=coords.device).triu().bool()
        ranked = ranked.masked_fill(later[None], far)

    k = min(k, n - 1)
    nearest, order = ranked.topk(k, dim=-1, largest=False)
    usable = nearest <= radius
    if node_mask is not None:
        pair = drop_diag(node_mask[:, :, None] & node_mask[:, None, :])
        usable = usable & pair.gather(-1, order)
    return ids.gather(-1, order), usable
