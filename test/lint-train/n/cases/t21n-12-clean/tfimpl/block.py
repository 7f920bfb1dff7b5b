import torch

from tfimpl.attention import get_attention
from tfimpl.config import AttentionConfig


class TransformerBlock(torch.nn.Module):
    def __init__(self, d_model: int, cfg: AttentionConfig):
        super().__init__()
        self.norm1 = torch.nn.LayerNorm(d_model)
        self.attn = get_attention(
            cfg.type,
            d_model=d_model,
            num_heads=cfg.num_heads,
            window_size=cfg.window_size,
            dilation=cfg.dilation,
            dropout=cfg.dropout,
            scale_attention=cfg.scale_attention,
        )
        self.norm2 = torch.nn.LayerNorm(d_model)
        self.ffn = torch.nn.Sequential(torch.nn.Linear(d_model, 4 * d_model), torch.nn.GELU(), torch.nn.Linear(4 * d_model, d_model))

    def forward(self, x, mask=None):
        x = x + self.attn(self.norm1(x), mask)
        return x + self.ffn(self.norm2(x))
