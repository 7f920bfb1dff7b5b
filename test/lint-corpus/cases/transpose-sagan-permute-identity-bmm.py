# case: transpose-sagan-permute-identity-bmm
# modelled-on: heykeetae/Self-Attention-GAN https://github.com/heykeetae/Self-Attention-GAN/issues/11
# label: buggy
# pattern: SAGAN self-attention on conv features; energy = bmm(query (B, N, C'), key (B, C', N)) is (B, N, N) with the keys last and the softmax over them, but the output is bmm(value (B, C, N), attention.permute(0, 1, 2)): a permute that changes nothing
# why: bmm(value, attention) sums over attention's axis 1, the queries, so each output position mixes the values with one key's weights across all queries; the maintainer confirmed permute(0, 2, 1) was meant (the fix in #11)
import torch
import torch.nn as nn


class Self_Attn(nn.Module):
    """Self attention layer over the spatial positions of a feature map."""

    def __init__(self, in_dim: int, activation=None):
        super().__init__()
        self.chanel_in = in_dim
        self.activation = activation
        self.query_conv = nn.Conv2d(in_channels=in_dim, out_channels=in_dim // 8, kernel_size=1)
        self.key_conv = nn.Conv2d(in_channels=in_dim, out_channels=in_dim // 8, kernel_size=1)
        self.value_conv = nn.Conv2d(in_channels=in_dim, out_channels=in_dim, kernel_size=1)
        self.gamma = nn.Parameter(torch.zeros(1))
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        m_batchsize, C, width, height = x.size()
        N = width * height
        proj_query = self.query_conv(x).view(m_batchsize, -1, N).permute(0, 2, 1)  # (B, N, C')
        proj_key = self.key_conv(x).view(m_batchsize, -1, N)  # (B, C', N)
        energy = torch.bmm(proj_query, proj_key)  # (B, N, N)
        attention = self.softmax(energy)
        proj_value = self.value_conv(x).view(m_batchsize, -1, N)  # (B, C, N)
        out = torch.bmm(proj_value, attention.permute(0, 1, 2))  # expect: ATT001
        out = out.view(m_batchsize, C, width, height)
        out = self.gamma * out + x
        return out, attention
