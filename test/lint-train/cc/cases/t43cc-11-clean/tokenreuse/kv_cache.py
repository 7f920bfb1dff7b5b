from typing import Optional

import torch


class FrameKVCache:
    """Per-layer cache of one video frame's keys, values, tokens and attention map.

    K, V: [B, heads, N, head_dim]; tokens: [B, N, C]; attn: [B, heads, N, N].
    """

    def __init__(self):
        self.K: Optional[torch.Tensor] = None
        self.V: Optional[torch.Tensor] = None
        self.tokens: Optional[torch.Tensor] = None
        self.prev_attn: Optional[torch.Tensor] = None

    def is_empty(self) -> bool:
        return self.K is None

    def store(self, K, V, tokens, attn=None) -> None:
        self.K = K.detach().clone()
        self.V = V.detach().clone()
        self.tokens = tokens.detach().clone()
        if attn is not None:
            self.prev_attn = attn.detach().clone()

    def clear(self) -> None:
        self.K = self.V = self.tokens = self.prev_attn = None
