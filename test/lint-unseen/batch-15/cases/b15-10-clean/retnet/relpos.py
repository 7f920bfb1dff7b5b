import torch
import torch.nn as nn


class ManhattanDecay(nn.Module):
    """Per-head spatial decay: log(gamma_h) * |i - j|_1 over the H*W grid, plus rotary angles."""

    def __init__(self, embed_dim, num_heads, initial_value, heads_range):
        super().__init__()
        angle = 1.0 / (10000 ** torch.linspace(0, 1, embed_dim // num_heads // 2))
        angle = angle.unsqueeze(-1).repeat(1, 2).flatten()
        gammas = 1 - 2 ** (-initial_value - heads_range * torch.arange(num_heads, dtype=torch.float) / num_heads)
        self.register_buffer("angle", angle)
        self.register_buffer("log_gamma", torch.log(gammas))  # negative: 0 < gamma < 1

    def decay_2d(self, H, W):
        ih = torch.arange(H).to(self.log_gamma)
        iw = torch.arange(W).to(self.log_gamma)
        grid = torch.stack(torch.meshgrid([ih, iw], indexing="ij"), dim=-1).reshape(H * W, 2)
        dist = (grid[:, None, :] - grid[None, :, :]).abs().sum(dim=-1)  # (HW, HW)
        return dist * self.log_gamma[:, None, None]  # (heads, HW, HW), 0 on the diagonal, < 0 elsewhere

    def forward(self, hw):
        index = torch.arange(hw[0] * hw[1]).to(self.log_gamma)
        sin = torch.sin(index[:, None] * self.angle[None, :]).reshape(hw[0], hw[1], -1)
        cos = torch.cos(index[:, None] * self.angle[None, :]).reshape(hw[0], hw[1], -1)
        return (sin, cos), self.decay_2d(hw[0], hw[1])
