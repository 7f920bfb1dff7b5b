import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def square_subsequent_mask(size):
    """Additive causal mask: 0.0 where a target position may look, -inf above the diagonal."""
    ones = torch.ones(size, size)
    lower = torch.triu(ones).to(DEVICE).transpose(1, 0)
    additive = lower.float().masked_fill(lower == 0, float("-inf")).masked_fill(lower == 1, float(0.0))
    return additive.to(DEVICE)
