# case: transpose-aaconv-split-heads-flat-tuple
# modelled-on: leaderj1001/Attention-Augmented-Conv2d https://github.com/leaderj1001/Attention-Augmented-Conv2d/issues/6
# label: correct
# pattern: attention-augmented convolution: one 1x1 conv gives q, k, v, torch.split along channels, split into heads and flattened to (B, Nh, d, H * W) channel-first in a helper that returns six tensors; q is scaled by dkh ** -0.5 inside the helper; logits are flat_q.transpose(2, 3) @ flat_k; the output is weights @ flat_v.transpose(2, 3) (the issue proposed flat_v @ weights)
# why: with channel-first heads, q^T k contracts the head dimension and is (B, Nh, HW_q, HW_k); softmax(dim=-1) is over the keys; weights @ v^T sums over the keys; the scale is applied to q in the helper
# looks-like: ATT003, ATT005
import torch
import torch.nn as nn
import torch.nn.functional as F


class AugmentedConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dk: int, dv: int, Nh: int):
        super().__init__()
        self.dk, self.dv, self.Nh = dk, dv, Nh
        self.conv_out = nn.Conv2d(in_channels, out_channels - dv, kernel_size, padding=kernel_size // 2)
        self.qkv_conv = nn.Conv2d(in_channels, 2 * dk + dv, kernel_size=1)
        self.attn_out = nn.Conv2d(dv, dv, 1)

    def forward(self, x):
        batch, _, height, width = x.size()
        conv_out = self.conv_out(x)
        # flat_*: (B, Nh, d, H * W); q, k, v: (B, Nh, d, H, W)
        flat_q, flat_k, flat_v, q, k, v = self.compute_flat_qkv(x, self.dk, self.dv, self.Nh)
        # (B, Nh, HW, HW)
        logits = torch.matmul(flat_q.transpose(2, 3), flat_k)
        weights = F.softmax(logits, dim=-1)
        # (B, Nh, HW, dvh)
        attn_out = torch.matmul(weights, flat_v.transpose(2, 3))
        attn_out = torch.reshape(attn_out, (batch, self.Nh, self.dv // self.Nh, height, width))
        attn_out = self.attn_out(self.combine_heads_2d(attn_out))
        return torch.cat((conv_out, attn_out), dim=1)

    def compute_flat_qkv(self, x, dk, dv, Nh):
        N, _, H, W = x.size()
        qkv = self.qkv_conv(x)
        q, k, v = torch.split(qkv, [dk, dk, dv], dim=1)
        q = self.split_heads_2d(q, Nh)
        k = self.split_heads_2d(k, Nh)
        v = self.split_heads_2d(v, Nh)
        dkh = dk // Nh
        q = q * dkh ** -0.5
        flat_q = torch.reshape(q, (N, Nh, dk // Nh, H * W))
        flat_k = torch.reshape(k, (N, Nh, dk // Nh, H * W))
        flat_v = torch.reshape(v, (N, Nh, dv // Nh, H * W))
        return flat_q, flat_k, flat_v, q, k, v

    def split_heads_2d(self, x, Nh):
        batch, channels, height, width = x.size()
        return torch.reshape(x, (batch, Nh, channels // Nh, height, width))

    def combine_heads_2d(self, x):
        batch, Nh, dv, H, W = x.size()
        return torch.reshape(x, (batch, Nh * dv, H, W))
