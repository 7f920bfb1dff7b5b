import torch
from torch import nn

from .multihead_attention import RotaryMultiheadAttention
from .position import RotaryPositionalEncoding


class DecoderLayer(nn.Module):
    def __init__(self, embed_dim=128, heads=4):
        super().__init__()
        rope = RotaryPositionalEncoding(embed_dim // heads)
        self.self_attn = RotaryMultiheadAttention(embed_dim, rope, heads)
        self.cross_attn = RotaryMultiheadAttention(embed_dim, rope, heads)
        self.norm1 = nn.LayerNorm(embed_dim)
        self.norm2 = nn.LayerNorm(embed_dim)

    def forward(self, target, target_pad, source, source_pad):
        """target_pad / source_pad: B x length, True on padding (tokens == PAD_IDX)."""
        x = self.norm1(target + self.self_attn(target, target, target, key_padding_mask=target_pad, is_causal=True))
        return self.norm2(x + self.cross_attn(x, source, source, key_padding_mask=source_pad))


def pad_mask(symbols: torch.Tensor, pad_idx: int) -> torch.Tensor:
    return symbols == pad_idx
