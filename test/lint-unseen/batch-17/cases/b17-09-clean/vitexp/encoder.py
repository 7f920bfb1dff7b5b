import torch.nn as nn

from vitexp.attention import FullWidthHeadsAttention
from vitexp.config import VIT_CONFIG


class Encoder(nn.Module):
    def __init__(self, config=VIT_CONFIG):
        super().__init__()
        self.blocks = nn.ModuleList([FullWidthHeadsAttention(config) for _ in range(config["num_encoder_blocks"])])
        self.ff = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(config["model_dim"]), nn.Linear(config["model_dim"], config["ff_dim"]), nn.GELU(),
                           nn.Linear(config["ff_dim"], config["model_dim"])) for _ in range(config["num_encoder_blocks"])]
        )

    def forward(self, x):
        keys, maps = None, []
        for attn, ff in zip(self.blocks, self.ff):
            x, probs, keys = attn(x, keys)
            x = x + ff(x)
            maps.append(probs)
        return x, maps
