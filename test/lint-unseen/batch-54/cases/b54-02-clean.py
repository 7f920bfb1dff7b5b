# case: b54-02-clean
# modelled-on: ADiko1997/S-GEAR https://github.com/ADiko1997/S-GEAR/commit/62f09eacc6f7062fa9a5144e077aaed8b26382da
# label: correct
# class: clean
# pattern: a cross-modal prototype attention for action anticipation: language prototypes (queries and values) attend to visual features (keys) per frame, in a 5-D layout (batch, frames, heads, tokens, head_dim); queries are multiplied by head_dim ** -0.5 before the product, and after the softmax the attention map is blended, through a sigmoid gate, with a learned per-head Toeplitz matrix passed through sin / cos
# why: correct: the scale is applied to the queries (head_dim = dim // num_heads), the softmax runs over the last axis, which is the keys of the (B, T, heads, N, N) product, and the blend with the Toeplitz prior after the softmax is the method's design (a temporal prior mixed into the normalised map with weights g and 1 - g, not a mask); nothing is masked in this module
# looks-like: ATT003, ATT006
# source: https://github.com/ADiko1997/S-GEAR https://github.com/ADiko1997/S-GEAR/commit/62f09eacc6f7062fa9a5144e077aaed8b26382da models/attention.py
import torch
import torch.nn as nn


class PrototypeCrossAttention(nn.Module):
    """Prototypes attend to frame features; the map is mixed with a cyclic Toeplitz prior."""

    def __init__(self, dim=768, num_heads=12, qk_norm=False, attn_drop=0.0, proj_drop=0.0,
                 n_proto=10, cyclic=True):
        super().__init__()
        assert dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.norm_q = nn.LayerNorm(self.head_dim) if qk_norm else nn.Identity()
        self.norm_k = nn.LayerNorm(self.head_dim) if qk_norm else nn.Identity()
        self.drop = nn.Dropout(attn_drop)
        self.out = nn.Linear(dim, dim)
        self.out_drop = nn.Dropout(proj_drop)
        # one row of Toeplitz weights per head
        self.toep = nn.Parameter(torch.full((num_heads, n_proto), 0.5))
        self.gate = nn.Parameter(torch.tensor([0.5]))
        self.cyclic = cyclic

    def _toeplitz(self, n):
        rows, cols = torch.ones(n, n).nonzero().T
        offset = cols - rows
        mats = []
        for h in range(self.toep.shape[0]):
            w = self.toep[h]
            diag_vals = torch.cat((w, w[1:].flip(0)))
            mats.append(diag_vals[offset].reshape(n, n))
        return torch.stack(mats, dim=0)  # (heads, n, n)

    @staticmethod
    def _cyclic(t, a=3, b=6, c=9):
        return torch.cat([torch.cos(t[:a]), torch.sin(t[a:b]), torch.cos(t[b:c]), torch.sin(t[c:])], dim=0)

    def forward(self, text, frames, batch):
        bt, n, c = text.shape
        t = bt // batch
        text = text.reshape(batch, t, n, self.num_heads, self.head_dim).permute(0, 1, 3, 2, 4)
        frames = frames.reshape(batch, t, -1, self.num_heads, self.head_dim).permute(0, 1, 3, 2, 4)

        val = text
        q = self.norm_q(text) * self.scale
        k = self.norm_k(frames)
        weights = (q @ k.transpose(-2, -1)).softmax(dim=-1)

        prior = self._toeplitz(weights.shape[-1])
        if self.cyclic:
            prior = self._cyclic(prior)
        g = torch.sigmoid(self.gate)
        weights = g * weights + (1 - g) * prior
        weights = self.drop(weights)

        y = (weights @ val).permute(0, 1, 3, 2, 4).reshape(bt, n, c)
        return self.out_drop(self.out(y))
