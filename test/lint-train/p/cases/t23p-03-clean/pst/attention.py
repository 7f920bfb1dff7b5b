# case: t23p-03-clean
# modelled-on: jonathanBalasingham/Periodic-Set-Transformer https://github.com/jonathanBalasingham/Periodic-Set-Transformer/commit/55736213344a4a2a17ee146c65c2efc1df184213
# label: correct
# class: clean
# pattern: vector attention over a weighted periodic set (crystal structure): per-channel weights come from an MLP on key.unsqueeze(-3) - query.unsqueeze(-2), shaped (B, i, j, C), and are normalised by a hand-written softmax over dim=-2 that multiplies exp() by each element's occurrence weight (zero for padding); a 0/1 mask (w_i * w_j > 0) is then multiplied into the weights after that softmax, and an einsum "b i j k, b j k -> b i k" sums over j; the weights come from the encoder module, read off column 0 of the input
# why: correct: in (B, i, j, C) the key index j is axis -2, so dim=-2 normalises over the keys; the padded keys already get zero weight inside the weighted softmax (their exp() is multiplied by a zero occurrence weight), so the 0/1 mask multiplied in afterwards only zeroes the rows of padded queries and changes no real row's normalisation; vector attention of this kind (Point Transformer style) has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/jonathanBalasingham/Periodic-Set-Transformer https://github.com/jonathanBalasingham/Periodic-Set-Transformer/commit/55736213344a4a2a17ee146c65c2efc1df184213 model.py
import torch
import torch.nn as nn


def weighted_softmax(x, dim=-1, weights=None):
    """Softmax where each entry's exp() is multiplied by its weight before normalising."""
    top = torch.max(x, dim, keepdim=True)[0]
    e = torch.exp(x - top)
    if weights is not None:
        e = weights * e
    return e / torch.sum(e, dim, keepdim=True)


class VectorAttention(nn.Module):
    def __init__(self, channels, attn_dropout=0.0, bias=True, act=nn.ReLU):
        super().__init__()
        self.to_q = nn.Sequential(nn.Linear(channels, channels, bias=bias), nn.LayerNorm(channels), act(inplace=True))
        self.to_k = nn.Sequential(nn.Linear(channels, channels, bias=bias), nn.LayerNorm(channels), act(inplace=True))
        self.to_v = nn.Linear(channels, channels, bias=bias)
        self.encode = nn.Sequential(
            nn.Linear(channels, channels),
            nn.LayerNorm(channels),
            act(inplace=True),
            nn.Linear(channels, channels),
        )
        self.drop = nn.Dropout(attn_dropout)

    def forward(self, feat, occupancy):
        # feat: (B, N, C); occupancy: (B, N, 1), each element's share of the cell, 0 on padding rows
        q, k, v = self.to_q(feat), self.to_k(feat), self.to_v(feat)
        rel = k.unsqueeze(-3) - q.unsqueeze(-2)  # (B, i, j, C)
        w = self.encode(rel)
        w = self.drop(weighted_softmax(w, dim=-2, weights=occupancy.unsqueeze(1)))
        both = (occupancy * occupancy.transpose(-1, -2)) > 0  # (B, i, j)
        w = w * both.unsqueeze(-1)
        return torch.einsum("b i j k, b j k -> b i k", w, v)
