from torch import nn

from utils import causal_keep


class Decoder(nn.Module):
    def __init__(self, d=256, h=8):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x):
        T = x.size(1)
        y, _ = self.attn(x, x, x, attn_mask=causal_keep(T, x.device), need_weights=False)
        return y
