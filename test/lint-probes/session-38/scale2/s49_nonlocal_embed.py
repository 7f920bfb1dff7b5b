import torch
import torch.nn as nn


class NonLocalBlock(nn.Module):
    """Embedded-Gaussian non-local block with the 1/sqrt(C') scaling of the attention."""

    def __init__(self, in_channels, inter_channels=None):
        super().__init__()
        self.inter_channels = inter_channels or in_channels // 2
        self.theta = nn.Conv2d(in_channels, self.inter_channels, 1)
        self.phi = nn.Conv2d(in_channels, self.inter_channels, 1)
        self.g = nn.Conv2d(in_channels, self.inter_channels, 1)
        self.out = nn.Conv2d(self.inter_channels, in_channels, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        theta_x = self.theta(x).view(b, self.inter_channels, -1).permute(0, 2, 1)
        phi_x = self.phi(x).view(b, self.inter_channels, -1)
        g_x = self.g(x).view(b, self.inter_channels, -1).permute(0, 2, 1)
        pairwise = torch.matmul(theta_x, phi_x)
        pairwise = pairwise / (theta_x.shape[-1] ** 0.5)
        pairwise = pairwise.softmax(dim=-1)
        y = torch.matmul(pairwise, g_x).permute(0, 2, 1).reshape(b, self.inter_channels, h, w)
        return x + self.out(y)
