# case: b42-07-clean
# modelled-on: nii-yamagishilab/project-NN-Pytorch-scripts https://github.com/nii-yamagishilab/project-NN-Pytorch-scripts/commit/112ec0ff021e58a6c92e945547e7bfb21c11424e
# label: correct
# class: clean
# pattern: attentive statistics pooling for a spoofing-detection CNN (a folder: the pooling module and the model that feeds it): a learned (heads, feat) matrix is the query, bmm with the (batch, frames, feat) features gives (batch, frames, heads) scores, tanh, softmax over dim=1 (the frame axis), then the weighted sum and a weighted standard deviation over frames are concatenated; the model crops every utterance to the same number of frames before the CNN, so no frame is padding
# why: correct: the weights must sum to 1 over the frames of an utterance, and in (batch, frames, heads) that is dim=1, not the last axis (heads); there is no key padding because the model cuts or tiles every waveform to one fixed length before the front end; tanh bounds the scores, so no 1/sqrt(d) scale is expected for this additive-style pooling
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/nii-yamagishilab/project-NN-Pytorch-scripts https://github.com/nii-yamagishilab/project-NN-Pytorch-scripts/commit/112ec0ff021e58a6c92e945547e7bfb21c11424e sandbox/block_nn.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentiveStatsPool(nn.Module):
    """(batch, frames, feat) -> (batch, feat * heads) or (batch, 2 * feat * heads) with the std."""

    def __init__(self, feat, heads=1, mean_only=False, jitter=1e-5):
        super().__init__()
        self.feat, self.heads = feat, heads
        self.mean_only = mean_only
        self.jitter = jitter
        self.query = nn.Parameter(torch.empty(heads, feat))
        nn.init.kaiming_uniform_(self.query)

    def weights(self, frames):
        n = frames.shape[0]
        q = self.query.t().contiguous().unsqueeze(0).expand(n, -1, -1)  # (batch, feat, heads)
        scores = torch.bmm(frames, q)  # (batch, frames, heads)
        return F.softmax(torch.tanh(scores), dim=1)

    def forward(self, frames):
        n, _, d = frames.shape
        alpha = self.weights(frames)
        if self.heads == 1:
            weighted = frames * alpha.expand_as(frames)
        else:
            weighted = torch.bmm(frames.reshape(-1, d, 1), alpha.reshape(-1, 1, self.heads))
            weighted = weighted.reshape(n, -1, d * self.heads)
        mean = weighted.sum(dim=1)
        if self.mean_only:
            return mean
        noisy = weighted + self.jitter * torch.randn_like(weighted)
        return torch.cat((mean, noisy.std(dim=1)), dim=1)
