import torch
import torch.nn as nn


class QuarterRoot(nn.Module):
    """Scale q and k by d**-0.25 each for fp16 stability."""

    def __init__(self, width, n_head):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(width, 3 * width)

    def forward(self, x):
        bs, n_ctx, width = x.shape
        attn_ch = width // self.n_head
        scale = 1 / (attn_ch ** 0.25)
        qkv = self.c_attn(x).view(bs, n_ctx, self.n_head, 3 * attn_ch)
        q, k, v = torch.split(qkv, attn_ch, dim=-1)  # each (bs, n_ctx, H, attn_ch)
        weight = torch.einsum("bthc,bshc->bhts", q * scale, k * scale)
        weight = torch.softmax(weight.float(), dim=-1).type(weight.dtype)
        return torch.einsum("bhts,bshc->bthc", weight, v).reshape(bs, n_ctx, -1)
