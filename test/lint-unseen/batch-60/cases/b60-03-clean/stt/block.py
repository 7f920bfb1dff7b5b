import torch
import torch.nn as nn


def half_step_ffn(d_model, d_ff, p):
    return nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, d_ff), nn.SiLU(), nn.Dropout(p),
                         nn.Linear(d_ff, d_model), nn.Dropout(p))


class ConvModule(nn.Module):
    def __init__(self, d_model, kernel=31, p=0.1):
        super().__init__()
        assert kernel % 2 == 1
        self.norm = nn.LayerNorm(d_model)
        self.expand = nn.Conv1d(d_model, 2 * d_model, 1)
        self.depthwise = nn.Conv1d(d_model, d_model, kernel, padding=kernel // 2, groups=d_model)
        self.tail = nn.Sequential(nn.BatchNorm1d(d_model), nn.SiLU(), nn.Conv1d(d_model, d_model, 1), nn.Dropout(p))

    def forward(self, x):
        y = nn.functional.glu(self.expand(self.norm(x).transpose(1, 2)), dim=1)
        return x + self.tail(self.depthwise(y)).transpose(1, 2)


class ConformerLayer(nn.Module):
    """FFN/2 -> self-attention -> convolution -> FFN/2 -> LayerNorm."""

    def __init__(self, d_model=256, heads=4, d_ff=1024, kernel=31, p=0.1):
        super().__init__()
        self.ff_in, self.ff_out = half_step_ffn(d_model, d_ff, p), half_step_ffn(d_model, d_ff, p)
        self.attn_norm = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, heads, dropout=p, batch_first=True)
        self.attn_drop = nn.Dropout(p)
        self.conv = ConvModule(d_model, kernel, p)
        self.final_norm = nn.LayerNorm(d_model)

    def forward(self, x: torch.Tensor, pad: torch.Tensor = None):
        """pad: (B, T) bool, True on frames past the end of an utterance."""
        x = x + 0.5 * self.ff_in(x)
        h = self.attn_norm(x)
        h, _ = self.attn(h, h, h, key_padding_mask=pad)
        x = self.conv(x + self.attn_drop(h))
        return self.final_norm(x + 0.5 * self.ff_out(x))
