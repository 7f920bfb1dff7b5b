import torch


def _expand_index(index: torch.Tensor, like: torch.Tensor, dim: int) -> torch.Tensor:
    if dim < 0:
        dim = like.dim() + dim
    if index.dim() == 1:
        for _ in range(dim):
            index = index.unsqueeze(0)
    for _ in range(index.dim(), like.dim()):
        index = index.unsqueeze(-1)
    return index.expand(like.size())


def segment_reduce(src: torch.Tensor, index: torch.Tensor, dim: int, dim_size: int, reduce: str) -> torch.Tensor:
    if dim < 0:
        dim = src.dim() + dim
    index = _expand_index(index, src, dim)
    shape = (*src.shape[:dim], dim_size, *src.shape[dim + 1 :])
    out = torch.zeros(*shape, dtype=src.dtype, device=src.device)
    return torch.scatter_reduce(out, dim, index, src, reduce, include_self=False)


def segment_sum(src: torch.Tensor, index: torch.Tensor, dim: int, dim_size: int) -> torch.Tensor:
    return segment_reduce(src, index, dim, dim_size, "sum")


def segment_softmax(src: torch.Tensor, index: torch.Tensor, dim: int, dim_size: int) -> torch.Tensor:
    """Softmax of `src` along `dim` within each group of entries sharing an index."""
    full_index = _expand_index(index, src, dim)
    seg_max = segment_reduce(src, index, dim, dim_size, "amax")
    seg_max = torch.gather(seg_max, dim, full_index)
    seg_max = torch.where(seg_max == float("-inf"), torch.zeros_like(seg_max), seg_max)
    scores = (src - seg_max).exp()
    z = segment_reduce(scores, index, dim, dim_size, "sum")
    z = torch.gather(z, dim, full_index)
    z = torch.where(z == 0, torch.ones_like(z), z)
    return scores / z
