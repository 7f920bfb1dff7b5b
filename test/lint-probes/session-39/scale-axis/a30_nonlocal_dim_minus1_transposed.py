import torch
import torch.nn as nn


class NonLocal(nn.Module):
    """Embedded Gaussian non-local block: f = theta^T phi over positions, softmax over the last axis (keys)."""

    def __init__(self, c):
        super().__init__()
        self.inter = c // 2
        self.theta = nn.Conv2d(c, self.inter, 1)
        self.phi = nn.Conv2d(c, self.inter, 1)
        self.g = nn.Conv2d(c, self.inter, 1)
        self.W = nn.Conv2d(self.inter, c, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        g_x = self.g(x).view(b, self.inter, -1).permute(0, 2, 1)  # (b, hw, c')
        theta_x = self.theta(x).view(b, self.inter, -1).permute(0, 2, 1)  # (b, hw, c')
        phi_x = self.phi(x).view(b, self.inter, -1)  # (b, c', hw)
        f = torch.matmul(theta_x, phi_x)  # (b, hw_q, hw_k)
        f_div_C = torch.softmax(f, dim=-1)
        y = torch.matmul(f_div_C, g_x).permute(0, 2, 1).contiguous().view(b, self.inter, h, w)
        return x + self.W(y)
