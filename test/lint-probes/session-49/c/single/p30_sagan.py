import torch
import torch.nn as nn


class SelfAttn2d(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.query_conv = nn.Conv2d(c, c // 8, 1)
        self.key_conv = nn.Conv2d(c, c // 8, 1)
        self.value_conv = nn.Conv2d(c, c, 1)
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        B, C, W, H = x.size()
        proj_query = self.query_conv(x).view(B, -1, W * H).permute(0, 2, 1)  # (B, N, C')
        proj_key = self.key_conv(x).view(B, -1, W * H)  # (B, C', N)
        energy = torch.bmm(proj_query, proj_key)  # (B, N, N)
        attention = torch.softmax(energy, dim=-1)
        proj_value = self.value_conv(x).view(B, -1, W * H)  # (B, C, N)
        out = torch.bmm(proj_value, attention.permute(0, 2, 1))  # (B, C, N)
        return self.gamma * out.view(B, C, W, H) + x
