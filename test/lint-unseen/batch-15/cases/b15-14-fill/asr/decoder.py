import torch.nn as nn

from asr.attention import HeadsAttention
from asr.masks import decoder_self_mask, encoder_pad_mask


class DecoderLayer(nn.Module):
    def __init__(self, model_dim=512, num_heads=8, ff_dim=2048):
        super().__init__()
        self.self_attn = HeadsAttention(model_dim, num_heads)
        self.cross_attn = HeadsAttention(model_dim, num_heads)
        self.ff = nn.Sequential(nn.Linear(model_dim, ff_dim), nn.ReLU(), nn.Linear(ff_dim, model_dim))
        self.norms = nn.ModuleList([nn.LayerNorm(model_dim) for _ in range(3)])

    def forward(self, y, memory, self_mask, cross_mask):
        a, _ = self.self_attn(y, y, y, self_mask)
        y = self.norms[0](y + a)
        c, _ = self.cross_attn(y, memory, memory, cross_mask)
        y = self.norms[1](y + c)
        return self.norms[2](y + self.ff(y))


def decode_step(layers, targets, memory, features, feature_lens, pad_id=0):
    self_mask = decoder_self_mask(targets, pad_id)
    cross_mask = encoder_pad_mask(features, feature_lens, targets.size(1))
    y = layers.embed(targets)
    for layer in layers.blocks:
        y = layer(y, memory, self_mask, cross_mask)
    return y
