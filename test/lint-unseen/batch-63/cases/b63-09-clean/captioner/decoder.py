import torch
from torch.nn import Dropout, GRUCell, Linear, Module

from .attention import FrameAttention


class CaptionDecoder(Module):
    def __init__(self, feat_dim: int, hid_dim: int, n_words: int, dropout_p: float, max_words: int = 22) -> None:
        super().__init__()
        self.hid_dim = hid_dim
        self.max_words = max_words
        self.drop = Dropout(dropout_p)
        self.attend = FrameAttention(feat_dim, hid_dim)
        self.cell = GRUCell(feat_dim, hid_dim)
        self.to_words = Linear(hid_dim, n_words)

    def forward(self, frames: torch.Tensor) -> torch.Tensor:
        frames = self.drop(frames)
        state = frames.new_zeros(frames.size(0), self.hid_dim)
        logits = []
        for _ in range(self.max_words):
            weights = self.attend(frames, state)  # (batch, time, 1)
            summary = (frames * weights).sum(dim=1)
            state = self.cell(summary, state)
            logits.append(self.to_words(state).unsqueeze(1))
        return torch.cat(logits, dim=1)
