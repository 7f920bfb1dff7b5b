# case: t33z-02-fill
# modelled-on: umami-hep/salt https://github.com/umami-hep/salt/commit/5ffab0ed0ee73dd0c4b8e75fd737768644c024f8
# label: correct
# class: fixed
# pattern: the fixed form of t33z-01: the jet-level attention pooling unsqueezes its padding mask (True = padded track) to (batch, tracks, 1) and calls a masked-softmax helper of another module (tagger/attention.py) over dim=1; the helper pads the mask's axes with a view helper of a third module (tagger/dense.py), fills the padded scores with -inf, normalises, then zeroes the same positions again; the same helper serves a multi-head attention whose scale sqrt(head_dim) is set in its own __init__ and handed as an argument to a scores module that divides by it, a GATv2 scores module, and a merged query/key padding mask (q_pad | kv_pad) that fully masks the rows of padded queries
# why: correct: the padded tracks are filled with -inf before the softmax and zeroed after it (the zeroing only removes the NaN of fully masked rows, which are padded queries; no real row loses weight); the mask convention (True = padded) is the same in every module; sqrt(head_dim) is the right scale; the GATv2 scores are unscaled by design; dropout on the scores is the authors' regularisation, not a mask
# looks-like: ATT001, ATT004, ATT006, ATT007
# source: https://github.com/umami-hep/salt https://github.com/umami-hep/salt/commit/5ffab0ed0ee73dd0c4b8e75fd737768644c024f8 salt/models/pooling.py
from torch import Tensor, nn

from tagger.attention import padded_softmax


class Pooling(nn.Module):
    """Base class of the jet-level pooling layers."""


class GateAttentionPooling(Pooling):
    """Pools (batch, tracks, features) track embeddings into one vector per jet."""

    def __init__(self, input_size: int):
        super().__init__()
        self.gate = nn.Linear(input_size, 1)

    def forward(self, tracks: Tensor, pad_mask: Tensor = None) -> Tensor:
        if pad_mask is not None:
            pad_mask = pad_mask.unsqueeze(-1)

        weights = padded_softmax(self.gate(tracks), pad_mask, dim=1)
        return (tracks * weights).sum(dim=1)
