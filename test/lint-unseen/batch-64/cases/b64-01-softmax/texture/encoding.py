# case: b64-01-softmax
# modelled-on: zhanghang1989/PyTorch-Encoding https://github.com/zhanghang1989/PyTorch-Encoding/commit/32e382bcb7cea782695cdf66001ed49ec0c2580a
# label: buggy
# class: real-bug
# pattern: the Deep TEN / EncNet residual encoding layer (a folder: `residual.py` computes the smoothed distances of the N = H*W descriptors to the K codewords, shaped (B, N, K), and the residual aggregation; `encoding.py` soft-assigns every descriptor to the codewords with a softmax over the distances; `net.py` puts the layer on a conv backbone as a texture-classification head)
# why: buggy: the layer's own docstring (and the paper) defines the assignment weight a_ik as a softmax over the K codewords for each descriptor i, but the distances are (B, N, K) and the softmax runs over dim=1, the N descriptors; the maintainer confirmed it as a bug introduced in an early commit (issue #114 / PR #115) and v0.5.0 changed it to dim=2
# source: https://github.com/zhanghang1989/PyTorch-Encoding https://github.com/zhanghang1989/PyTorch-Encoding/commit/32e382bcb7cea782695cdf66001ed49ec0c2580a encoding/nn/encoding.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from texture.residual import aggregate, scaled_l2


class ResidualEncoding(nn.Module):
    r"""Learnable residual encoder.

    A (B, D, H, W) feature map is read as N = H*W descriptors x_i of width D. The layer learns K
    codewords d_k and smoothing factors s_k, assigns every descriptor softly to the codewords,

        a_ik = exp(s_k ||x_i - d_k||^2) / sum_{j=1..K} exp(s_j ||x_i - d_j||^2),

    and returns the encoded residuals e_k = sum_i a_ik (x_i - d_k), shape (B, K, D).
    """

    def __init__(self, channels, num_codes):
        super().__init__()
        self.channels = channels
        self.num_codes = num_codes
        self.codewords = nn.Parameter(torch.empty(num_codes, channels))
        self.smoothing = nn.Parameter(torch.empty(num_codes))
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / (self.num_codes * self.channels) ** 0.5
        nn.init.uniform_(self.codewords, -bound, bound)
        nn.init.uniform_(self.smoothing, -1.0, 0.0)

    def forward(self, feats):
        if feats.size(1) != self.channels:
            raise ValueError(f"expected {self.channels} channels, got {feats.size(1)}")
        batch = feats.size(0)
        if feats.dim() == 3:
            # (B, D, N) -> (B, N, D)
            x = feats.transpose(1, 2).contiguous()
        elif feats.dim() == 4:
            # (B, D, H, W) -> (B, H*W, D)
            x = feats.reshape(batch, self.channels, -1).transpose(1, 2).contiguous()
        else:
            raise ValueError("the encoding layer takes 3-D or 4-D inputs")
        # soft-assignment weights
        assign = F.softmax(scaled_l2(x, self.codewords, self.smoothing), dim=1)  # expect: ATT001
        return aggregate(assign, x, self.codewords)

    def extra_repr(self):
        return f"N x {self.channels} => {self.num_codes} x {self.channels}"
