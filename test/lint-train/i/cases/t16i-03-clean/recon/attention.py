# case: t16i-03-clean
# modelled-on: hobincar/RecNet https://github.com/hobincar/RecNet/commit/a6e4cd99e6d0a1e2a64a7e0ef78d04b90f61ba36
# label: correct
# class: clean
# pattern: a video-captioning model with a reconstructor: additive (Bahdanau) temporal attention scores each time step with nn.Linear(bottleneck, 1), giving energies of shape (B, T, 1); with a mask it squeezes the last axis, assigns -inf through boolean indexing on the negated keep mask (energies[~masks] = -inf), unsqueezes again and softmaxes over dim=1 (time); the keep mask is built in another module from the captions (not PAD and not EOS) and transposed from (T, B) to (B, T) before the call
# why: correct: the softmax runs over the time axis (dim 1), not the length-1 score axis; ~masks is True exactly on PAD / EOS steps, so -inf goes on the positions to hide; every caption starts with a real token, so no row is fully masked and -inf cannot produce NaN
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/hobincar/RecNet https://github.com/hobincar/RecNet/commit/a6e4cd99e6d0a1e2a64a7e0ef78d04b90f61ba36 models/temporal_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class StepAttention(nn.Module):
    def __init__(self, hidden_size, feat_size, bottleneck):
        super().__init__()
        self.W = nn.Linear(hidden_size, bottleneck, bias=False)
        self.U = nn.Linear(feat_size, bottleneck, bias=False)
        self.b = nn.Parameter(torch.ones(bottleneck))
        self.w = nn.Linear(bottleneck, 1, bias=False)

    def forward(self, hidden, feats, masks=None):
        wh = self.W(hidden).unsqueeze(1).expand(-1, feats.size(1), -1)
        uv = self.U(feats)
        energies = self.w(torch.tanh(wh + uv + self.b))
        if masks is not None:
            energies = energies.squeeze(2)
            energies[~masks] = -float("inf")
            energies = energies.unsqueeze(2)
        weights = F.softmax(energies, dim=1)
        context = (feats * weights).sum(dim=1)
        return context, weights
