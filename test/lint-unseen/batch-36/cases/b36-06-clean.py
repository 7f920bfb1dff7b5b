# case: b36-06-clean
# modelled-on: HugoAhoy/RADN-Region-Adaptive-Dense-Network-for-Efficient-Motion-Deblurring-PyTorch-Implementation https://github.com/HugoAhoy/RADN-Region-Adaptive-Dense-Network-for-Efficient-Motion-Deblurring-PyTorch-Implementation/commit/54597ff669d627b9e0b45c52706a0afaeddae17d
# label: correct
# class: clean
# pattern: a re-implementation of a region-adaptive dense network for motion deblurring: its self-attention module (SAGAN / non-local style) projects the feature map with 1x1 convolutions (query and key to C/8 channels, value to C), flattens the H*W positions, forms energy = bmm(query (B, N, C/8), key (B, C/8, N)), applies nn.Softmax(dim=-1) built in __init__, and aggregates with bmm(value (B, C, N), attention.permute(0, 2, 1)); the result is added back through a learned gamma initialised to zero; the network calls it once in its bottleneck
# why: correct: the energy's last axis is the key position, so the softmax normalises each query position's weights over the keys; permute(0, 2, 1) puts the key axis first so that bmm(value, attention^T) sums the values over the keys with those weights (out[:, :, i] = sum_j v[:, :, j] a[i, j]); SAGAN and non-local blocks use unscaled single-head dot products over convolution features by design (the papers have no 1/sqrt(d)); there is no mask
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/HugoAhoy/RADN-Region-Adaptive-Dense-Network-for-Efficient-Motion-Deblurring-PyTorch-Implementation https://github.com/HugoAhoy/RADN-Region-Adaptive-Dense-Network-for-Efficient-Motion-Deblurring-PyTorch-Implementation/commit/54597ff669d627b9e0b45c52706a0afaeddae17d network/samodule.py
import torch
import torch.nn as nn


class SA(nn.Module):
    """Self-attention over the spatial positions of a feature map (non-local block, SAGAN style)."""

    def __init__(self, num_features):
        super(SA, self).__init__()
        reduced = num_features // 8
        self.query_conv = nn.Conv2d(num_features, reduced, 1, bias=False)
        self.key_conv = nn.Conv2d(num_features, reduced, 1, bias=False)
        self.value_conv = nn.Conv2d(num_features, num_features, 1, bias=False)
        self.softmax = nn.Softmax(dim=-1)
        # the attention branch starts switched off and is learned in
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        b, C, H, W = x.size()
        n = H * W
        query = self.query_conv(x).view(b, -1, n).permute(0, 2, 1)  # B x N x C/8
        key = self.key_conv(x).view(b, -1, n)  # B x C/8 x N
        energy = torch.bmm(query, key)  # B x N(query) x N(key)
        attention = self.softmax(energy)
        value = self.value_conv(x).view(b, -1, n)  # B x C x N
        # out[:, :, i] = sum_j value[:, :, j] * attention[:, i, j]
        out = torch.bmm(value, attention.permute(0, 2, 1)).view(b, C, H, W)
        return self.gamma * out + x


class DeblurBottleneck(nn.Module):
    """The middle of a region-adaptive deblurring network: dense features, then global self-attention."""

    def __init__(self, channels=1123):
        super().__init__()
        self.squeeze = nn.Conv2d(channels, channels, 3, padding=1)
        self.act = nn.LeakyReLU(0.2, inplace=True)
        self.SA = SA(channels)

    def forward(self, feats):
        return self.SA(self.act(self.squeeze(feats)))
