# case: b61-04-clean
# modelled-on: JoseJuan98/transformer-attention-with-hdc-binding https://github.com/JoseJuan98/transformer-attention-with-hdc-binding/commit/d0d3ccfe973c8ab04efe9725df56226c7c86368e
# label: correct
# class: clean
# pattern: multi-head attention of a time-series classification transformer built as a list of single-head modules (a folder: `single.py` scales by `width ** -0.5` where `width` is the width it is constructed with, fills positions whose keep mask is 0 with `finfo(dtype).min` and takes a softmax over the keys; `multi.py` splits q/k/v into heads of `embed_dim // heads` and constructs every single-head module with that per-head width, slicing head i out of the (b, h, n, d) tensors)
# why: correct: the single-head module's scale is 1/sqrt of the width it is built with, and the multi-head module builds each head with the per-head width, so the scores are scaled by 1/sqrt(d_k) of each head, not of the model width; the mask is a keep mask (its docstring: 1 = kept) and is inverted before `masked_fill`; the fill is the dtype's own minimum, finite in any precision; the softmax is over the keys (last axis of (b, n, n))
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/JoseJuan98/transformer-attention-with-hdc-binding https://github.com/JoseJuan98/transformer-attention-with-hdc-binding/commit/d0d3ccfe973c8ab04efe9725df56226c7c86368e src/models/transformer/attention/multi_head_attention.py
import torch
from torch import nn

from tsattn.single import SingleHead


class HeadListAttention(nn.Module):
    """Concat(head_1, ..., head_h) W_o, each head a SingleHead over its own slice of the width."""

    def __init__(self, embed_dim: int, heads: int, seq_len: int):
        super().__init__()
        if embed_dim % heads:
            raise ValueError("embed_dim must be divisible by heads")
        self.embed_dim, self.heads, self.seq_len = embed_dim, heads, seq_len
        self.head_dim = embed_dim // heads
        self.per_head = nn.ModuleList([SingleHead(self.head_dim) for _ in range(heads)])
        self.out = nn.Linear(embed_dim, embed_dim)
        nn.init.xavier_normal_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def _split(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, self.head_dim).transpose(1, 2)

    def forward(self, q, k, v, keep=None):
        q, k, v = self._split(q), self._split(k), self._split(v)
        outs = [head(q[:, i], k[:, i], v[:, i], keep=keep) for i, head in enumerate(self.per_head)]
        return self.out(torch.cat(outs, dim=-1))


class EncoderLayer(nn.Module):
    def __init__(self, embed_dim, heads, seq_len, hidden, p_drop=0.1):
        super().__init__()
        self.attn = HeadListAttention(embed_dim, heads, seq_len)
        self.ff = nn.Sequential(nn.Linear(embed_dim, hidden), nn.GELU(), nn.Linear(hidden, embed_dim))
        self.n1, self.n2 = nn.LayerNorm(embed_dim), nn.LayerNorm(embed_dim)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x, keep=None):
        x = self.n1(x + self.drop(self.attn(x, x, x, keep=keep)))
        return self.n2(x + self.drop(self.ff(x)))
