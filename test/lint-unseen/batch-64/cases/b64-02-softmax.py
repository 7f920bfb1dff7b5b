# case: b64-02-softmax
# modelled-on: zhanghang1989/PyTorch-Encoding https://github.com/zhanghang1989/PyTorch-Encoding/commit/f8919197bd53b027b131a891dd7b917e615a6743
# label: correct
# class: fixed
# pattern: the residual encoding layer after the fix, in the context-encoding module of EncNet (one file: the smoothed codeword distances are computed inline by expanding ||x - c||^2 into (B, N, K), the assignment is a softmax over dim=2, and the aggregated residuals are averaged over the codewords to gate the channels of the feature map, SE style)
# why: correct: the distances are (batch, descriptors, codewords) and the softmax runs over dim=2, the codewords, as the layer's documented formula and the paper's soft assignment require; this is the v0.5.0 fix of the dim=1 bug (issue #114 / PR #115); the smoothing factor is learned per codeword, so no 1/sqrt(d) appears, and nothing is masked
# looks-like: ATT001, ATT003
# source: https://github.com/zhanghang1989/PyTorch-Encoding https://github.com/zhanghang1989/PyTorch-Encoding/commit/f8919197bd53b027b131a891dd7b917e615a6743 encoding/nn/encoding.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class CodewordEncoding(nn.Module):
    """Soft-assigns the H*W descriptors of a feature map to K learned codewords and sums the residuals."""

    def __init__(self, width, codes):
        super().__init__()
        self.width, self.codes = width, codes
        self.centers = nn.Parameter(torch.empty(codes, width).uniform_(-1.0, 1.0) / (codes * width) ** 0.5)
        self.beta = nn.Parameter(torch.empty(codes).uniform_(-1.0, 0.0))

    def forward(self, fmap):
        b, d = fmap.shape[:2]
        desc = fmap.view(b, d, -1).permute(0, 2, 1)  # (B, N, D)
        # ||x_i - c_k||^2 = |x_i|^2 - 2 x_i.c_k + |c_k|^2, shaped (B, N, K)
        sq = (desc * desc).sum(-1, keepdim=True) - 2.0 * desc @ self.centers.t() + (self.centers**2).sum(-1)
        # assignment weights (B, N, K): each descriptor's weights sum to one over the codewords
        weights = torch.softmax(sq * self.beta, dim=2)
        # e_k = sum_i a_ik x_i - (sum_i a_ik) c_k
        enc = weights.transpose(1, 2) @ desc - weights.sum(1).unsqueeze(-1) * self.centers
        return enc  # (B, K, D)


class ContextGate(nn.Module):
    """EncNet's context encoding module: encode, average over codewords, gate the channels."""

    def __init__(self, channels, num_classes, codes=32, se_loss=True):
        super().__init__()
        self.pre = nn.Sequential(
            nn.Conv2d(channels, channels, 1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(inplace=True),
        )
        self.encode = CodewordEncoding(channels, codes)
        self.post = nn.Sequential(nn.BatchNorm1d(codes), nn.ReLU(inplace=True))
        self.gate = nn.Sequential(nn.Linear(channels, channels), nn.Sigmoid())
        self.se_head = nn.Linear(channels, num_classes) if se_loss else None

    def forward(self, x):
        context = self.post(self.encode(self.pre(x))).mean(dim=1)  # (B, C)
        scale = self.gate(context).view(x.size(0), x.size(1), 1, 1)
        out = F.relu(x + x * scale)
        if self.se_head is None:
            return out
        return out, self.se_head(context)
