from torch import nn


class Encoder(nn.Module):
    def __init__(self, vocab, d=128, h=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, ids, pad_mask):
        x = self.emb(ids)
        y, _ = self.mha(x, x, x, key_padding_mask=pad_mask)
        return y.mean(1)
