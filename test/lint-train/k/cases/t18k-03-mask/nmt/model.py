import torch
from torch import nn

from .blocks import DecoderBlock, EncoderBlock


class Translator(nn.Module):
    def __init__(self, src_pad, tgt_pad, src_vocab, tgt_vocab, d_model=512, heads=8, dff=2048, layers=6):
        super().__init__()
        self.src_pad = src_pad
        self.tgt_pad = tgt_pad
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.tgt_embed = nn.Embedding(tgt_vocab, d_model)
        self.encoder = nn.ModuleList([EncoderBlock(d_model, heads, dff) for _ in range(layers)])
        self.decoder = nn.ModuleList([DecoderBlock(d_model, heads, dff) for _ in range(layers)])
        self.out = nn.Linear(d_model, tgt_vocab)

    def src_mask(self, src):
        return (src != self.src_pad).unsqueeze(1).unsqueeze(2)  # (N, 1, 1, S)

    def forward(self, src, tgt):
        enc_mask = self.src_mask(src)
        dec_mask = self.tgt_mask(tgt)
        x = self.src_embed(src)
        for block in self.encoder:
            x = block(x, enc_mask)
        y = self.tgt_embed(tgt)
        for block in self.decoder:
            y = block(y, x, dec_mask, enc_mask)
        return self.out(y)

    def tgt_mask(self, tgt):
        look_ahead = torch.triu(torch.ones((tgt.size(1), tgt.size(1)), device=tgt.device), diagonal=1).bool()
        return look_ahead.unsqueeze(0).unsqueeze(1)  # (1, 1, T, T)
