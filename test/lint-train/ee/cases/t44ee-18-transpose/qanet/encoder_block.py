import torch.nn.functional as F
from torch import nn

from qanet.self_attention import HeadsSelfAttention


class ConvAttnBlock(nn.Module):
    def __init__(self, n_conv, kernel_size=7, padding=3, n_filters=128, n_heads=8, batch_size=32, pos=None, norm=None):
        super().__init__()
        self.n_conv = n_conv
        self.pos = pos
        self.norm = norm
        self.convs = nn.ModuleList(
            [nn.Conv1d(n_filters, n_filters, kernel_size=kernel_size, padding=padding) for _ in range(n_conv)]
        )
        self.attn = HeadsSelfAttention(batch_size, n_heads, n_filters)
        self.fc = nn.Linear(n_filters, n_filters)

    def forward(self, x):
        # x: (B, n_filters, L), channels first for the convolutions
        x = self.pos(x)
        for conv in self.convs:
            x = x + F.relu(conv(self.norm(x)))
        h = self.norm(x).permute(0, 2, 1)  # (B, L, n_filters) for the attention
        x = x + self.attn(h).permute(0, 2, 1)
        h = self.fc(self.norm(x).permute(0, 2, 1)).permute(0, 2, 1)
        return x + h
