# case: t33z-01-fill
# modelled-on: umami-hep/salt https://github.com/umami-hep/salt/commit/7569e5747b66b1c9eb95a1f566ba6720c639876a
# label: buggy
# class: real-bug
# pattern: a jet-flavour tagger's global attention pooling over the tracks of a jet: a Linear gate gives one score per track, torch.softmax over dim=1 (the track axis of (batch, tracks, 1)), then `weights[mask] == 0` as a statement of its own, then the weighted sum of the track embeddings; the mask is True on padded tracks (the PyTorch padding convention used throughout the tagger)
# why: buggy: `weights[mask] == 0` is a comparison whose result is thrown away (an assignment was meant), so the padded tracks are never masked: they take part in the softmax and their zero-padded embeddings get weight, diluting every jet with fewer tracks than the padded length; the authors replaced it (commit 5ffab0e, "Improve ONNX robustness") with a masked softmax that fills the padded scores with -inf before normalising
# source: https://github.com/umami-hep/salt https://github.com/umami-hep/salt/commit/7569e5747b66b1c9eb95a1f566ba6720c639876a salt/models/pooling.py
import torch
from torch import Tensor, nn


class Pooling(nn.Module):
    """Base class of the jet-level pooling layers."""


class GateAttentionPooling(Pooling):
    """Pools (batch, tracks, features) track embeddings into one vector per jet."""

    def __init__(self, input_size: int):
        super().__init__()
        self.gate = nn.Linear(input_size, 1)

    def forward(self, tracks: Tensor, pad_mask: Tensor) -> Tensor:
        # pad_mask: (batch, tracks), True where the track slot is padding
        weights = torch.softmax(self.gate(tracks), dim=1)
        weights[pad_mask] == 0  # expect: ATT007
        return (tracks * weights).sum(dim=1)
