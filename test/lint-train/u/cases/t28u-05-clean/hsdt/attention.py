# case: t28u-05-clean
# modelled-on: Zeqiang-Lai/HSDT https://github.com/Zeqiang-Lai/HSDT/commit/d6fed85afe059936c86478c0fe69b839e026c2d1
# label: correct
# class: clean
# pattern: the official code of a hyperspectral denoising transformer (HSDT): the guided spectral self-attention pools the 3-D feature map (B, C, bands, H, W) over space to tmp (B, bands, C) and forms band-to-band logits either as the unprojected, unscaled Gram matrix tmp @ tmp.transpose(1, 2) or from a learned query, Linear(C, num_bands)(tmp), picked at random during training and the learned one at test time; F.softmax(dim=-1) over the bands, the (B, 1, 1, bands, bands) weights then multiply the per-pixel values (B, H, W, bands, C); the block is built in the architecture module for every encoder/decoder stage
# why: correct: this is the authors' published spectral attention: the logits are either a learned projection (no dot product at all) or the self-similarity of the pooled features that guides it during training, which the paper writes without 1/sqrt(d) (there are no query/key projections to scale, as in non-local blocks); the softmax runs over the last axis, the attended bands, and matmul(attn, v) sums the values over that same axis
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/Zeqiang-Lai/HSDT https://github.com/Zeqiang-Lai/HSDT/commit/d6fed85afe059936c86478c0fe69b839e026c2d1 hsdt/attention.py
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class GSSA(nn.Module):
    """Guided spectral self-attention: every band attends over all bands."""

    def __init__(self, channel, num_bands, flex=False):
        super().__init__()
        self.channel = channel
        self.num_bands = num_bands
        self.flex = flex
        self.attn_proj = nn.Linear(channel, num_bands)  # the learnable query
        self.value_proj = nn.Linear(channel, channel, bias=False)
        self.fc = nn.Linear(channel, channel, bias=False)

    def forward(self, x):
        B, C, D, H, W = x.shape
        residual = x
        tmp = x.reshape(B, C, D, H * W).mean(-1).permute(0, 2, 1)  # (B, bands, C)

        use_gram = random.random() > 0.5 if self.training else self.flex
        if use_gram:
            attn = tmp @ tmp.transpose(1, 2)  # (B, bands, bands)
        else:
            attn = self.attn_proj(tmp)  # (B, bands, bands)
        attn = F.softmax(attn.reshape(B, self.num_bands, self.num_bands), dim=-1)
        attn = attn.unsqueeze(1).unsqueeze(1)  # (B, 1, 1, bands, bands)

        v = self.value_proj(rearrange(x, "b c d h w -> b h w d c"))  # (B, H, W, bands, C)
        q = self.fc(torch.matmul(attn, v))
        q = rearrange(q, "b h w d c -> b c d h w")
        return q + residual, attn


class PixelwiseGSSA(GSSA):
    """Ablation: the same attention per pixel instead of on the pooled bands."""

    def forward(self, x):
        B, C, D, H, W = x.shape
        x = rearrange(x, "b c d h w -> b (h w) d c")
        residual = x
        if self.training and random.random() <= 0.5:
            attn = self.attn_proj(x)
        else:
            attn = x @ x.transpose(-1, -2)  # (B, HW, bands, bands)
        attn = F.softmax(attn, dim=-1)
        q = self.fc(torch.matmul(attn, self.value_proj(x))) + residual
        return rearrange(q, "b (h w) d c -> b c d h w", d=D, h=H, w=W), attn


class SMFFN(nn.Module):
    """Self-modulated feed-forward network."""

    def __init__(self, d_model, d_ff, bias=False):
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff, bias=bias)
        self.w_2 = nn.Linear(d_ff, d_model, bias=bias)
        self.w_3 = nn.Linear(d_model, d_ff, bias=bias)

    def forward(self, inputs):
        x1 = self.w_2(F.gelu(self.w_1(inputs)))
        x, w = torch.chunk(self.w_3(inputs), 2, dim=-1)
        return x1 + x * torch.sigmoid(w)


class TransformerBlock(nn.Module):
    def __init__(self, channels, num_bands=31, bias=False, flex=False):
        super().__init__()
        self.attn = GSSA(channels, num_bands, flex=flex)
        self.ffn = SMFFN(channels, channels * 2, bias=bias)

    def forward(self, inputs):
        r, _ = self.attn(inputs)
        r = self.ffn(rearrange(r, "b c d h w -> b d h w c"))
        return rearrange(r, "b d h w c -> b c d h w")
