import torch


def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Softmax along dim: subtract the max, reduce in float32, return the input dtype."""
    x32 = x.float()
    x32 = x32 - x32.max(dim=dim, keepdim=True).values
    exp = torch.exp(x32)
    return (exp / exp.sum(dim=dim, keepdim=True)).to(x.dtype)
