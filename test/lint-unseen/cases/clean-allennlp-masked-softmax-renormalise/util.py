import torch


def tiny_value_of_dtype(dtype: torch.dtype):
    """A small value to avoid division by zero in the dtype."""
    if not dtype.is_floating_point:
        raise TypeError("Only supports floating point dtypes.")
    if dtype == torch.float or dtype == torch.double:
        return 1e-13
    elif dtype == torch.half:
        return 1e-4
    else:
        raise TypeError("Does not support dtype " + str(dtype))


def min_value_of_dtype(dtype: torch.dtype):
    """The minimum value of the dtype, the usual fill for masked positions."""
    return torch.finfo(dtype).min


def masked_softmax(vector: torch.Tensor, mask: torch.BoolTensor, dim: int = -1,
                   memory_efficient: bool = False) -> torch.Tensor:
    """
    `torch.nn.functional.softmax(vector)` does not work if some elements of `vector` should be
    masked. This performs a softmax on just the non-masked portions of `vector`. `mask` is True
    at the positions to keep.
    """
    if mask is None:
        result = torch.nn.functional.softmax(vector, dim=dim)
    else:
        while mask.dim() < vector.dim():
            mask = mask.unsqueeze(1)
        if not memory_efficient:
            # To limit numerical errors from large vector elements outside the mask, we zero these out.
            result = torch.nn.functional.softmax(vector * mask, dim=dim)
            result = result * mask
            result = result / (result.sum(dim=dim, keepdim=True) + tiny_value_of_dtype(result.dtype))
        else:
            masked_vector = vector.masked_fill(~mask, min_value_of_dtype(vector.dtype))
            result = torch.nn.functional.softmax(masked_vector, dim=dim)
    return result
