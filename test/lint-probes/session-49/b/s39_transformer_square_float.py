import torch
from torch import nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d=128, pad=0):
        super().__init__()
        self.pad = pad
        self.emb = nn.Embedding(vocab, d)
        self.tf = nn.Transformer(d, 4, 2, 2, batch_first=True)

    def forward(self, src, tgt):
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1), device=tgt.device)
        out = self.tf(
            self.emb(src),
            self.emb(tgt),
            tgt_mask=tgt_mask,
            src_key_padding_mask=src == self.pad,
            tgt_key_padding_mask=tgt == self.pad,
            memory_key_padding_mask=src == self.pad,
        )
        return out
