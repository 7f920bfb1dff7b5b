# case: scale-swin-window-qk-scale-or-head-dim
# modelled-on: microsoft/Swin-Transformer https://github.com/microsoft/Swin-Transformer/issues/264
# label: correct
# pattern: the scale is `qk_scale or head_dim ** -0.5` (an optional override that is None by default), folded into q before the product, with a relative position bias and a shifted-window mask added to the scores
# why: the reporter read the override as replacing sqrt(head_dim); the maintainer explained that qk_scale is None by default, so the scale is 1/sqrt(head_dim) unless a caller sets a constant on purpose
# looks-like: ATT004, ATT003
import torch
from torch import nn


class WindowSelfAttention(nn.Module):
    def __init__(self, dim, window_size, num_heads, qkv_bias=True, qk_scale=None, attn_drop=0.0):
        super().__init__()
        self.dim = dim
        self.window_size = window_size
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim ** -0.5
        span = (2 * window_size[0] - 1) * (2 * window_size[1] - 1)
        self.bias_table = nn.Parameter(torch.zeros(span, num_heads))
        self.register_buffer("bias_index", torch.zeros(window_size[0] * window_size[1], window_size[0] * window_size[1], dtype=torch.long))
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, mask=None):
        # x: (num_windows * B, N, C); mask: (num_windows, N, N) with 0 / -100 entries
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        bias = self.bias_table[self.bias_index.view(-1)].view(N, N, -1).permute(2, 0, 1).contiguous()
        attn = attn + bias.unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = self.softmax(attn)
        attn = self.attn_drop(attn)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))
