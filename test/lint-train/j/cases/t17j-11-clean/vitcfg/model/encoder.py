# case: t17j-11-clean
# modelled-on: gadisa-firisa/vit-from-scratch https://github.com/gadisa-firisa/vit-from-scratch/commit/62ed3a0050da998574371b3955215ffad9f394b6
# label: correct
# class: clean
# pattern: a from-scratch ViT whose attention scale lives in the config module: ViTConfig.inv_sqrt_dk is a property returning (hidden_size // num_heads) ** -0.5; the encoder's attention packs q, k, v with one Linear(hidden, 3 * hidden), reshapes to (B, N, 3, heads, C // heads), permutes to (3, B, heads, N, d), unbinds, multiplies (q @ k.transpose(-2, -1)) by config.inv_sqrt_dk and softmaxes over the last axis
# why: correct: the property computes the per-head width hidden_size // num_heads, the same d the reshape uses (C // num_heads), so the scale is 1/sqrt(d_k); the multiplication applies it once, before the softmax; k.transpose(-2, -1) swaps the keys' token and feature axes of the 4-D head tensor
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/gadisa-firisa/vit-from-scratch https://github.com/gadisa-firisa/vit-from-scratch/commit/62ed3a0050da998574371b3955215ffad9f394b6 vit_from_scratch/config.py, vit_from_scratch/model/encoder.py
import torch
import torch.nn as nn

from vitcfg.config import ViTConfig


class VitAttention(nn.Module):
    def __init__(self, config: ViTConfig):
        super().__init__()
        self.config = config
        self.qkv = nn.Linear(config.hidden_size, config.hidden_size * 3, bias=config.qkv_bias)
        self.attn_drop = nn.Dropout(config.attn_drop_rate)
        self.proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.proj_drop = nn.Dropout(config.drop_rate)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.config.num_heads, C // self.config.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.config.inv_sqrt_dk
        attn = attn.softmax(dim=-1)
        attn = self.attn_drop(attn)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj_drop(self.proj(x))


class EncoderLayer(nn.Module):
    def __init__(self, config: ViTConfig):
        super().__init__()
        self.attention = VitAttention(config)
        hidden = int(config.hidden_size * config.mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(config.hidden_size, hidden), nn.GELU(), nn.Linear(hidden, config.hidden_size))
        self.ln1 = nn.LayerNorm(config.hidden_size)
        self.ln2 = nn.LayerNorm(config.hidden_size)

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.mlp(self.ln2(x))
