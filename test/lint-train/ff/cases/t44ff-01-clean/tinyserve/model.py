import torch
from torch import nn

from .attention import MultiHead


class Block(nn.Module):
    def __init__(self, heads, width, ff_width):
        super().__init__()
        self.attn = MultiHead(width, heads)
        self.ff = nn.Sequential(nn.Linear(width, ff_width), nn.GELU(), nn.Linear(ff_width, width))
        self.ln_a = nn.LayerNorm(width)
        self.ln_b = nn.LayerNorm(width)

    def forward(self, x, mask=None):
        h = self.ln_a(x)
        x = x + self.attn(h, h, h, mask)
        x = x + self.ff(self.ln_b(x))
        return x


class TinyGPT(nn.Module):
    def __init__(self, vocab, max_len, heads, width, ff_width, depth):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(max_len, width)
        self.blocks = nn.ModuleList([Block(heads, width, ff_width) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    # pad_mask: bool (batch, seq), True where the slot is padding
    def forward(self, ids, pad_mask=None):
        bsz, seq = ids.shape
        dev = ids.device
        x = self.tok(ids) + self.pos(torch.arange(seq, device=dev))
        future = torch.triu(torch.ones(seq, seq, dtype=torch.bool, device=dev), diagonal=1)
        if pad_mask is not None:
            mask = future[None, None, :, :] | pad_mask[:, None, None, :]
        else:
            mask = future
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.ln_f(x))
