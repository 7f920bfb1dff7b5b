from typing import List, Tuple

import torch


def encode(text: str) -> torch.Tensor:
    return torch.tensor([ord(c) for c in text])


def tokenize_all(texts: List[str]) -> Tuple[torch.Tensor, torch.Tensor]:
    """Returns (tokens, mask): tokens right-padded with 0, mask True on real characters."""
    longest = max(len(t) for t in texts)
    tokens = torch.zeros((len(texts), longest), dtype=torch.long)
    mask = torch.zeros((len(texts), longest), dtype=torch.bool)
    for i, text in enumerate(texts):
        ids = encode(text)
        tokens[i, : len(ids)] = ids
        mask[i, : len(ids)] = 1
    return tokens, mask
