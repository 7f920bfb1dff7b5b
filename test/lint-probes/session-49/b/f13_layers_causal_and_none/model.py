from torch import nn

from layers import Attention


class EncoderDecoder(nn.Module):
    def __init__(self, d=128, h=4):
        super().__init__()
        self.enc = Attention(d, h, causal=False)
        self.dec = Attention(d, h, causal=True)

    def forward(self, src, tgt, src_keep):
        mem = self.enc(src, mask=src_keep[:, None, None, :])
        return self.dec(tgt + mem.mean(1, keepdim=True))
