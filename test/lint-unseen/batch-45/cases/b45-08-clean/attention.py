# case: b45-08-clean
# modelled-on: JAYANDJEAN/From_DDPM_to_Stable_Diffusion https://github.com/JAYANDJEAN/From_DDPM_to_Stable_Diffusion/commit/102eb6f0c4c72836367dbfaf640fc78ba5d85fba
# label: correct
# class: clean
# pattern: the attention of a small class-conditioned latent-diffusion UNet simplified from Stable Diffusion 1 (a folder: this module with the self- and cross-attention layers, and the UNet block that flattens the feature map to (B, H*W, C) tokens and feeds a class embedding as the cross-attention context); q, k and v are split into heads with view(B, L, heads, d).transpose(1, 2) and handed to F.scaled_dot_product_attention with no mask, no is_causal and no scale argument; the context is a single token (B, 1, C) reshaped by view(B, -1, heads, d)
# why: correct: SDPA applies its default 1/sqrt(d) of the head width itself, so no scale appears in the code; image tokens attend to each other in both directions (a diffusion UNet is not autoregressive), so neither a mask nor is_causal belongs here; the head split transposes the head and token axes of all three tensors alike, SDPA transposes the keys itself, and a single context token gives each query one weight of 1, which is what conditioning on one class embedding means
# looks-like: ATT003, ATT005, ATT008
# source: https://github.com/JAYANDJEAN/From_DDPM_to_Stable_Diffusion https://github.com/JAYANDJEAN/From_DDPM_to_Stable_Diffusion/commit/102eb6f0c4c72836367dbfaf640fc78ba5d85fba 06_tiny_stable_diffusion/diffusion.py
import torch
import torch.nn as nn
from torch import Tensor
from torch.nn import functional as F


def _split_heads(t: Tensor, heads: int) -> Tensor:
    b, n, c = t.shape
    return t.view(b, n, heads, c // heads).transpose(1, 2)


def _merge_heads(t: Tensor) -> Tensor:
    b, h, n, d = t.shape
    return t.transpose(1, 2).reshape(b, n, h * d)


class TokenSelfAttention(nn.Module):
    def __init__(self, heads: int, channels: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(channels, 3 * channels, bias=False)
        self.proj = nn.Linear(channels, channels)

    def forward(self, x: Tensor) -> Tensor:
        q, k, v = (_split_heads(t, self.heads) for t in self.qkv(x).chunk(3, dim=-1))
        return self.proj(_merge_heads(F.scaled_dot_product_attention(q, k, v)))


class ContextCrossAttention(nn.Module):
    def __init__(self, heads: int, channels: int, context_dim: int):
        super().__init__()
        self.heads = heads
        self.head_dim = channels // heads
        self.to_q = nn.Linear(channels, channels, bias=False)
        self.to_k = nn.Linear(context_dim, channels, bias=False)
        self.to_v = nn.Linear(context_dim, channels, bias=False)
        self.proj = nn.Linear(channels, channels)

    def forward(self, x: Tensor, context: Tensor) -> Tensor:
        b = x.shape[0]
        q = _split_heads(self.to_q(x), self.heads)
        k = self.to_k(context).view(b, -1, self.heads, self.head_dim).transpose(1, 2)
        v = self.to_v(context).view(b, -1, self.heads, self.head_dim).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v)
        return self.proj(_merge_heads(out))
