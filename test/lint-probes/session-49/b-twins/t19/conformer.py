from torch import nn

from utils import lengths_to_padding_mask


class ConformerLayer(nn.Module):
    def __init__(self, d=144, h=4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, h)

    def forward(self, x, lengths):  # x: (T, B, C)
        encoder_padding_mask = lengths_to_padding_mask(lengths)
        y, _ = self.self_attn(x, x, x, key_padding_mask=encoder_padding_mask, need_weights=False)
        return x + y
