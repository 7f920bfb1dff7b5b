import torch
import torch.nn.functional as F
from torch import nn, einsum


def exists(val):
    return val is not None


class Attend(nn.Module):
    def __init__(self, dropout=0., causal=False, flash=False, scale=None):
        super().__init__()
        self.scale = scale
        self.causal = causal
        self.dropout = dropout
        self.attn_dropout = nn.Dropout(dropout)
        self.flash = flash

    def flash_attn(self, q, k, v, mask=None, attn_bias=None):
        batch, heads, q_len, _, k_len, device = *q.shape, k.shape[-2], q.device
        causal = self.causal

        if exists(mask):
            mask = mask.expand(batch, heads, q_len, k_len)
            # manually handle the causal mask when another mask is given
            if causal:
                causal_mask = torch.ones((q_len, k_len), dtype=torch.bool, device=device).triu(k_len - q_len + 1)
                mask = mask | causal_mask
                causal = False

        if exists(attn_bias):
            attn_bias = attn_bias.unsqueeze(0).expand(batch, -1, -1, -1)
            mask_value = -torch.finfo(q.dtype).max
            if exists(mask):
                attn_bias = attn_bias.masked_fill(mask, mask_value // 2)
            # scaled_dot_product_attention takes an additive bias as well as a bool mask
            mask = attn_bias
        elif exists(mask):
            # the mask is True where attention is blocked; SDPA attends where a bool mask is True
            mask = ~mask

        return F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=mask,
            dropout_p=self.dropout if self.training else 0.,
            is_causal=causal,
        )

    def forward(self, q, k, v, mask=None, attn_bias=None):
        scale = self.scale if exists(self.scale) else q.shape[-1] ** -0.5

        if self.flash:
            return self.flash_attn(q, k, v, mask=mask, attn_bias=attn_bias)

        dots = einsum('b h i d, b h j d -> b h i j', q, k) * scale
        if exists(attn_bias):
            dots = dots + attn_bias

        mask_value = -torch.finfo(dots.dtype).max
        if exists(mask):
            dots = dots.masked_fill(mask, mask_value)

        if self.causal:
            i, j = dots.shape[-2:]
            causal_mask = torch.ones((i, j), dtype=torch.bool, device=dots.device).triu(j - i + 1)
            dots = dots.masked_fill(causal_mask, mask_value)

        attn = self.attn_dropout(dots.softmax(dim=-1))
        return einsum('b h i j, b h j d -> b h i d', attn, v)
