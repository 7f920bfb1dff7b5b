# case: t10c-02-mask
# modelled-on: tommasocarraro/Transformer-from-scratch https://github.com/tommasocarraro/Transformer-from-scratch/commit/5fb113b
# label: correct
# class: fixed
# pattern: the padding mask is built True on padding (tokens == pad) in the model and the attention in another module fills where it is 1
# why: the code after commit 5fb113b ("fixed important bug on padding masks"): the mask marks padding, as the fill expects
# looks-like: ATT002, ATT007
# source: https://github.com/tommasocarraro/Transformer-from-scratch https://github.com/tommasocarraro/Transformer-from-scratch/commit/5fb113b src/net/transformer.py
import torch
import torch.nn as nn

from net.encoder import Encoder


class Seq2SeqEncoderModel(nn.Module):
    def __init__(self, vocab, n_classes, pad_token, d_model=128, n_heads=4, d_ff=512, dropout=0.1, n_layers=2):
        super().__init__()
        self.pad_token = pad_token
        self.encoder = Encoder(vocab, d_model, n_heads, d_ff, dropout, n_layers)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, tokens):
        pad_mask = (tokens == self.pad_token).unsqueeze(1).unsqueeze(2)
        hidden = self.encoder(tokens, pad_mask)
        return self.head(hidden)


if __name__ == "__main__":
    model = Seq2SeqEncoderModel(vocab=100, n_classes=100, pad_token=0)
    batch = torch.tensor([[5, 7, 9, 0, 0], [3, 4, 5, 6, 8]])
    print(model(batch).shape)
