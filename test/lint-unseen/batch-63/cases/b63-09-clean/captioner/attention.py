# case: b63-09-clean
# modelled-on: DK-Nguyen/audio-captioning-sub-sampling https://github.com/DK-Nguyen/audio-captioning-sub-sampling/commit/8c893daccec897fb9d537eca6665af510eaf8365
# label: correct
# class: clean
# pattern: Bahdanau-style attention for an audio-captioning decoder in a folder: `attention.py` projects the (batch, time, feat) encoder sequence and the (batch, hid) decoder state, adds them (the state expanded over time), optionally runs extra LeakyReLU layers, reduces to one score per frame with a bias-free Linear to 1 and normalises with an `nn.Softmax(dim=1)` built in `__init__`; `decoder.py` multiplies the (batch, time, 1) weights into the frames and sums over dim 1 to get the GRU cell's input at every output step
# why: correct: the scores are (batch, time, 1), so dim 1 is the time axis and the softmax gives one weight per frame that sums to one over the frames (the last axis has length 1); the decoder sums the weighted frames over the same axis; additive attention carries no 1/sqrt(d) factor, and audio frames are not padded inside a batch, so no mask is intended
# looks-like: ATT001, ATT003
# source: https://github.com/DK-Nguyen/audio-captioning-sub-sampling https://github.com/DK-Nguyen/audio-captioning-sub-sampling/commit/8c893daccec897fb9d537eca6665af510eaf8365 modules/attention.py
from typing import List, Optional

from torch import Tensor
from torch.nn import Dropout, LeakyReLU, Linear, Module, Sequential, Softmax, Tanh


class FrameAttention(Module):
    def __init__(self, feat_dim: int, state_dim: int, dropout_p: float = 0.25, extra_dims: Optional[List[int]] = None) -> None:
        super().__init__()
        self.from_state = Linear(state_dim, feat_dim, bias=False)
        self.from_frames = Linear(feat_dim, feat_dim, bias=False)
        self.extra = None
        out_dim = feat_dim
        if extra_dims is not None:
            dims = [feat_dim] + extra_dims
            layers = []
            for d_in, d_out in zip(dims[:-2], dims[1:-1]):
                layers += [Linear(d_in, d_out), LeakyReLU(), Dropout(dropout_p)]
            layers.append(Linear(dims[-2], dims[-1], bias=False))
            self.extra = Sequential(*layers)
            out_dim = dims[-1]
        self.to_score = Linear(out_dim, 1, bias=False)
        self.tanh = Tanh()
        self.leaky = LeakyReLU()
        self.norm = Softmax(dim=1)

    def forward(self, frames: Tensor, state: Tensor) -> Tensor:
        """frames: (batch, time, feat); state: (batch, hid) -> weights (batch, time, 1)."""
        mixed = self.from_frames(frames) + self.from_state(state).unsqueeze(1).expand(-1, frames.size(1), -1)
        hidden = self.extra(self.leaky(mixed)) if self.extra is not None else self.tanh(mixed)
        return self.norm(self.to_score(hidden))
