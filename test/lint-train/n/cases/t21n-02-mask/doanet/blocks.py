# case: t21n-02-mask
# modelled-on: yangyi0818/DOA-estimation-with-a-stacked-self-attention-network https://github.com/yangyi0818/DOA-estimation-with-a-stacked-self-attention-network/commit/be0242cb32de4132ffa36a7c14ff7cd2c0d79469
# label: buggy
# class: real-bug
# pattern: a sound-source localisation (DOA) network of dense conv blocks and 1x1-conv self-attention blocks over a (B, C, F, T) feature map: Q, K, V are reshaped to (B, C*F, T), the scores are einsum('ikj,ijl->ikl', Q.permute(0, 2, 1), K) / sqrt(C*F) (queries on axis 1, keys on axis 2), and with causal=True the block keeps torch.triu(scores), then turns the zeros into -inf with torch.where(scores != 0, scores, -inf) before the softmax over the last axis; the causal model (another module) calls every block with causal=True, the time block on a map whose last axis is the frames
# why: buggy: rows of the scores are queries and columns keys, so triu keeps the keys at or after each query's frame and sends the earlier ones to -inf: the "causal attention" of the online model attends to the future and hides the past, the opposite of causal (tril is the causal keep side); the block's own comment and the separate causal model say causal is the intent. No fix exists
# source: https://github.com/yangyi0818/DOA-estimation-with-a-stacked-self-attention-network https://github.com/yangyi0818/DOA-estimation-with-a-stacked-self-attention-network/commit/be0242cb32de4132ffa36a7c14ff7cd2c0d79469 doa-estimation/base.py
import torch
import torch.nn as nn
from numpy import inf


class DenseBlock(nn.Module):
    def __init__(self, channels, kernel_size=(2, 3), padding=(1, 1)):
        super().__init__()
        self.convs = nn.ModuleList()
        for i in range(5):
            self.convs.append(nn.Sequential(nn.Conv2d(channels * (i + 1), channels, kernel_size, 1, padding, bias=False),
                                            nn.PReLU(), nn.BatchNorm2d(channels)))

    def forward(self, x):
        for conv in self.convs:
            y = conv(x)[:, :, : x.size()[-2], :]
            x = torch.cat((x, y), 1)
        return y


class AttentionBlock(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv_Q = nn.Conv2d(in_channels, out_channels, kernel_size=1)
        self.conv_K = nn.Conv2d(in_channels, out_channels, kernel_size=1)
        self.conv_V = nn.Conv2d(in_channels, out_channels, kernel_size=1)

    def forward(self, x, causal=False):
        Q = self.conv_Q(x).reshape(x.size()[0], -1, x.size()[3])
        K = self.conv_K(x).reshape(x.size()[0], -1, x.size()[3])
        V = self.conv_V(x).reshape(x.size()[0], -1, x.size()[3])
        # scaled dot product: (B, T, T), queries on axis 1, keys on axis 2
        weights = torch.einsum("ikj,ijl->ikl", [Q.permute(0, 2, 1), K]) / (Q.size()[1]) ** 0.5

        if causal:
            # causal attention
            weights = torch.triu(weights)
            blocked = torch.ones_like(weights) * float(-inf)
            weights = torch.where(weights != 0, weights, blocked)  # expect: ATT002

        probs = weights.softmax(dim=-1)
        out = torch.einsum("ijl,ilk->ijk", [V, probs.permute(0, 2, 1)])
        return out.reshape(x.size()[0], -1, x.size()[2], x.size()[3]), weights
