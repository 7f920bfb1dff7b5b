import torch

from .attention import AttentionBlock
from .masker import Masker


class SpeechTransformer(torch.nn.Module):
    def __init__(self, feat_dim=320, d_model=256, vocab=4000, heads=4, layers=6):
        super().__init__()
        self.inp = torch.nn.Linear(feat_dim, d_model)
        self.embed = torch.nn.Embedding(vocab, d_model)
        self.enc = torch.nn.ModuleList([AttentionBlock(d_model, d_model // heads, 0.1, heads) for _ in range(layers)])
        self.dec_self = torch.nn.ModuleList([AttentionBlock(d_model, d_model // heads, 0.1, heads) for _ in range(layers)])
        self.dec_cross = torch.nn.ModuleList([AttentionBlock(d_model, d_model // heads, 0.1, heads) for _ in range(layers)])
        self.out = torch.nn.Linear(d_model, vocab)

    def forward(self, feature, feature_length, tokens, token_length):
        feat_mask = Masker.from_lengths(feature_length)
        enc_mask = Masker.pair_mask(feat_mask, feat_mask)
        tok_mask = Masker.from_lengths(token_length)
        dec_mask = Masker.forward_mask(Masker.pair_mask(tok_mask, tok_mask))
        cross_mask = Masker.pair_mask(tok_mask, feat_mask)
        x = self.inp(feature)
        for block in self.enc:
            x = block(x, x, enc_mask)
        y = self.embed(tokens)
        for self_block, cross_block in zip(self.dec_self, self.dec_cross):
            y = self_block(y, y, dec_mask)
            y = cross_block(y, x, cross_mask)
        return self.out(y)
