# case: b31-09-clean
# modelled-on: felixquinton1/lightweight-temporal-attention-pytorch https://github.com/felixquinton1/lightweight-temporal-attention-pytorch/commit/df7a65052f3e240dd488a469843a6239ae6f2169
# label: correct
# class: clean
# pattern: crop-type classification from padded satellite image time series (a pixel-set encoder per date, then a lightweight temporal attention encoder): this module derives a (B, T) pad mask that is True on dates whose pixels are all zero and passes it on; models/ltae.py repeats it once per head, computes each head's master query against the keys as (n*b, 1, d_k) @ (n*b, d_k, T), divides by sqrt(d_k), masked_fill's the padded dates with -1e3 and applies nn.Softmax(dim=2)
# why: correct: masked_fill writes where the mask is True, and the mask is True exactly on padded dates; -1e3 below scaled scores of order one gives those dates zero weight in float32; the per-head copies follow the head-major (n*b) layout of the keys; the attention tensor is (n*b, 1, T) and dim=2 is the date axis; the divisor is sqrt(d_k), the query/key width
# looks-like: ATT001, ATT002, ATT004, ATT007
# source: https://github.com/felixquinton1/lightweight-temporal-attention-pytorch https://github.com/felixquinton1/lightweight-temporal-attention-pytorch/commit/df7a65052f3e240dd488a469843a6239ae6f2169 models/stclassifier.py
import torch
import torch.nn as nn

from models.ltae import LTAE


class PixelSetEncoder(nn.Module):
    """Shared MLP over the pixels of one date, pooled by mean and std."""

    def __init__(self, input_dim=10, hidden=64, out_dim=128):
        super().__init__()
        self.mlp1 = nn.Sequential(nn.Linear(input_dim, hidden), nn.ReLU())
        self.mlp2 = nn.Sequential(nn.Linear(2 * hidden, out_dim), nn.ReLU())

    def forward(self, pixels, pad_mask=None):
        # pixels: B x T x C x S
        out = self.mlp1(pixels.permute(0, 1, 3, 2))  # B x T x S x hidden
        pooled = torch.cat([out.mean(dim=2), out.std(dim=2)], dim=-1)
        return self.mlp2(pooled)


class PseLTae(nn.Module):
    """Pixel-set encoder + lightweight temporal attention encoder sequence classifier."""

    def __init__(self, input_dim=10, n_head=16, d_k=8, d_model=256, mlp3=[256, 128], dropout=0.2, len_max_seq=24,
                 n_classes=20, return_att=False):
        super(PseLTae, self).__init__()
        self.spatial_encoder = PixelSetEncoder(input_dim)
        self.temporal_encoder = LTAE(in_channels=128, n_head=n_head, d_k=d_k, d_model=d_model, n_neurons=mlp3,
                                     dropout=dropout, len_max_seq=len_max_seq, return_att=return_att)
        self.decoder = nn.Sequential(nn.Linear(mlp3[-1], 64), nn.ReLU(), nn.Linear(64, n_classes))
        self.return_att = return_att

    def forward(self, input):
        pixels = input['input'][0]
        pad_mask = (pixels == 0).all(dim=-1).all(dim=-1)  # B x T pad mask
        out = self.spatial_encoder(pixels, pad_mask=pad_mask)
        out = self.temporal_encoder(out, pad_mask=pad_mask)
        if self.return_att:
            out, att = out
            return self.decoder(out), att
        return self.decoder(out)
