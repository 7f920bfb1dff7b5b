import torch
import torch.nn as nn

PAD = 1


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.tf = nn.Transformer(d_model=d, nhead=8, batch_first=True)

    def forward(self, src, tgt):
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        return self.tf(
            self.emb(src),
            self.emb(tgt),
            tgt_mask=tgt_mask,
            src_key_padding_mask=src == PAD,
            tgt_key_padding_mask=tgt == PAD,
            memory_key_padding_mask=src == PAD,
        )
