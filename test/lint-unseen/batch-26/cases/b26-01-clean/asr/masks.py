import numpy as np
import torch


class MaskBuilder:
    """Masks are 1.0 where attention is NOT allowed (padding, future tokens), 0.0 elsewhere."""

    def padding(self, tokens: torch.Tensor) -> torch.Tensor:
        # (batch, len) -> (batch, 1, 1, len)
        return (tokens == 0).type(torch.float32)[:, np.newaxis, np.newaxis, :]

    def look_ahead(self, length: int) -> torch.Tensor:
        return torch.triu(torch.ones((length, length)), diagonal=1)

    def decoder_masks(self, tokens: torch.Tensor):
        pad = self.padding(tokens)
        future = self.look_ahead(tokens.size(1))
        return pad, torch.maximum(future, pad)
