import torch
from torch import nn

from .layers import MultiHead
from .masking import future_mask


class DecoderLayer(nn.Module):
    def __init__(self, emb_dim, num_heads, dropout):
        super().__init__()
        self.self_attn = MultiHead(num_heads, emb_dim, dropout)
        self.cross_attn = MultiHead(num_heads, emb_dim, dropout)
        self.norm1 = nn.LayerNorm(emb_dim)
        self.norm2 = nn.LayerNorm(emb_dim)

    def forward(self, x, hide, memory):
        x = self.self_attn(self.norm1(x), attention_mask=hide) + x
        return self.cross_attn(self.norm2(x), memory=memory) + x


class Decoder(nn.Module):
    def __init__(self, vocab, emb_dim=256, num_heads=4, layers=4, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb_dim)
        self.layers = nn.ModuleList([DecoderLayer(emb_dim, num_heads, dropout) for _ in range(layers)])
        self.out = nn.Linear(emb_dim, vocab, bias=False)

    def forward(self, tokens, token_keep, memory):
        batch, length = tokens.shape
        pad = token_keep.lt(1).unsqueeze(1).expand(-1, length, -1)
        hide = torch.logical_or(pad, pad.mT)
        hide = torch.logical_or(hide, future_mask(batch, length, tokens.device))
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, hide, memory)
        return self.out(x)
