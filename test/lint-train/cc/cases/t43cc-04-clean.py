# case: t43cc-04-clean
# modelled-on: lizhenping/multi-head-self-attention https://github.com/lizhenping/multi-head-self-attention/commit/98913b1f0714aa624f7b078fd783b28b74dbadc7
# label: correct
# class: clean
# pattern: a multi-head attention module with a self-attention subclass and two mask helpers in the same file: `padding_mask(seq, pad_idx)` returns `(seq != pad_idx).unsqueeze(1).unsqueeze(2)` and `look_ahead_mask(n)` returns `torch.triu(torch.ones(n, n), diagonal=1).eq(0)` with two leading axes; the attention fills `mask == 0` in place with -inf (a 3-D mask gets a heads axis first); the file's demo passes a padding mask built from random 0/1 ids; nothing in the file calls the look-ahead helper
# why: correct: both helpers return keep masks (True at real tokens; `triu(ones, 1).eq(0)` is True on and below the diagonal, the past and the query itself), and the attention blocks where they are 0/False; the look-ahead mask keeps the diagonal, so no row is fully -inf; the demo's padding mask is True at the nonzero ids
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/lizhenping/multi-head-self-attention https://github.com/lizhenping/multi-head-self-attention/commit/98913b1f0714aa624f7b078fd783b28b74dbadc7 src/models/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MHA(nn.Module):
    """Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V, run over several heads."""

    def __init__(self, embed_dim, num_heads, dropout=0.1, bias=True):
        super(MHA, self).__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = math.sqrt(self.head_dim)
        self.to_q = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.to_k = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.to_v = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.to_out = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.attn_drop = nn.Dropout(dropout)

    def _split(self, x, proj):
        b, n, _ = x.shape
        return proj(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, query, key, value, mask=None, return_attention=False):
        b, n = query.size(0), query.size(1)
        q, k, v = self._split(query, self.to_q), self._split(key, self.to_k), self._split(value, self.to_v)

        # [b, h, n, d] @ [b, h, d, n] -> [b, h, n, n]
        energy = torch.matmul(q, k.transpose(-2, -1)) / self.scale
        if mask is not None:
            if mask.dim() == 3:
                mask = mask.unsqueeze(1)
            energy.masked_fill_(mask == 0, float('-inf'))

        probs = self.attn_drop(F.softmax(energy, dim=-1))
        out = torch.matmul(probs, v).transpose(1, 2).contiguous().view(b, n, self.embed_dim)
        out = self.to_out(out)
        return (out, probs) if return_attention else out


class SelfMHA(MHA):
    """Queries, keys and values all come from the same input."""

    def forward(self, x, mask=None, return_attention=False):
        return super().forward(x, x, x, mask, return_attention)


def padding_mask(seq, pad_idx=0):
    """[batch, seq] ids -> [batch, 1, 1, seq] mask."""
    return (seq != pad_idx).unsqueeze(1).unsqueeze(2)


def look_ahead_mask(size):
    """Lower-triangular mask [1, 1, size, size] for decoder self-attention."""
    m = torch.triu(torch.ones(size, size), diagonal=1)
    return m.eq(0).unsqueeze(0).unsqueeze(0)


if __name__ == "__main__":
    x = torch.randn(2, 10, 512)
    layer = MHA(512, 8)
    print(layer(x, x, x).shape)
    m = padding_mask(torch.randint(0, 2, (2, 10)))
    print(layer(x, x, x, m).shape)
