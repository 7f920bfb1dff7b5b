import torch
import torch.nn as nn

from attn_talking_head import AttnTalkingHead


class LayerScaleBlock(nn.Module):
    def __init__(self, embed_dim=384, num_heads=8, init_values=1e-5):
        super().__init__()
        self.norm1 = nn.LayerNorm(embed_dim)
        self.attn = AttnTalkingHead(embed_dim, num_heads, qkv_bias=True)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.mlp = nn.Sequential(nn.Linear(embed_dim, 4 * embed_dim), nn.GELU(), nn.Linear(4 * embed_dim, embed_dim))
        self.gamma_1 = nn.Parameter(init_values * torch.ones(embed_dim))
        self.gamma_2 = nn.Parameter(init_values * torch.ones(embed_dim))

    def forward(self, x):
        x = x + self.gamma_1 * self.attn(self.norm1(x))
        return x + self.gamma_2 * self.mlp(self.norm2(x))
