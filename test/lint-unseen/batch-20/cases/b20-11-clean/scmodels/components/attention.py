import torch


def generate_causal_mask(seq_len: int, device=None) -> torch.Tensor:
    """(S, S) float mask: 0.0 where attention is allowed, -inf on the future, for nn.TransformerEncoder's mask."""
    return torch.nn.Transformer.generate_square_subsequent_mask(seq_len, device=device)
