# case: b19-02-postmask
# modelled-on: Zafirmk/miniGPT https://github.com/Zafirmk/miniGPT/commit/4125485f0de9ceeb8c8b95f96087b2fee168a123
# label: correct
# class: fixed
# pattern: the same from-scratch encoder-decoder after the fixes: the dataset module builds int keep masks ((tokens != pad) & causal, where causal_mask returns triu(...) == 0, True on and below the diagonal); the attention divides q @ k^T by sqrt(d_k) with d_k = width / heads kept as a float, fills the scores where the keep mask == 0 with -1e9 in place, then applies the nn.Softmax(dim=-1) from __init__; heads are split with view(b, t, h, d).transpose(1, 2)
# why: correct: the keep mask is 1 for real (and past) tokens, so mask == 0 selects exactly the padding and future keys, filled before the softmax over the key axis; the scale is the per-head width; -1e9 is safe in float32
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/Zafirmk/miniGPT https://github.com/Zafirmk/miniGPT/commit/4125485f0de9ceeb8c8b95f96087b2fee168a123 model.py, dataset.py
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        assert width % heads == 0, "width must be divisible by heads"
        self.head_width = width / heads
        self.width = width
        self.heads = heads
        self.softmax = nn.Softmax(dim=-1)
        self.wq = nn.Linear(width, width)
        self.wk = nn.Linear(width, width)
        self.wv = nn.Linear(width, width)
        self.wo = nn.Linear(width, width)

    def attend(self, q, k, v, keep=None):
        logits = (q @ k.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.head_width))
        if keep is not None:
            logits.masked_fill_(keep == 0, -1e9)
        probs = self.softmax(logits)
        out = probs @ v
        return out.transpose(1, 2).contiguous().view(out.shape[0], -1, int(self.heads * self.head_width))

    def _split(self, x):
        return x.view((x.shape[0], x.shape[1], self.heads, int(self.head_width))).transpose(1, 2)

    def forward(self, q, k, v, keep=None):
        out = self.attend(self._split(self.wq(q)), self._split(self.wk(k)), self._split(self.wv(v)), keep)
        return self.wo(out)


class DecoderLayer(nn.Module):
    def __init__(self, width, hidden, heads):
        super().__init__()
        self.self_attn = MultiHeadAttention(width, heads)
        self.cross_attn = MultiHeadAttention(width, heads)
        self.ff = nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, width))
        self.norms = nn.ModuleList([nn.LayerNorm(width) for _ in range(3)])

    def forward(self, x, memory, enc_mask, dec_mask):
        h = self.norms[0](x)
        x = x + self.self_attn(h, h, h, keep=dec_mask)
        h = self.norms[1](x)
        x = x + self.cross_attn(h, memory, memory, keep=enc_mask)
        return x + self.ff(self.norms[2](x))
