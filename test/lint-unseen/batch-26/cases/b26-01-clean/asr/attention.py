# case: b26-01-clean
# modelled-on: Alan-404/Speech-Transformer https://github.com/Alan-404/Speech-Transformer/commit/6ae54141655e5e5d5f9d502b43759258e5af257a
# label: correct
# class: clean
# pattern: a speech recogniser's attention: a mask-builder module returns float masks that are 1.0 on padding ((tokens == 0) indexed to (B, 1, 1, L)) and 1.0 above the diagonal (triu(ones, diagonal=1)), combined with torch.maximum; the shared attention function divides q @ k.transpose(-1, -2) by torch.sqrt of a float tensor holding k.size(-1), adds mask * (-1e20) and takes softmax(dim=-1); the same function also runs unmasked along time and along frequency on (B, C, F, T) / (B, C, T, F) feature maps of a 2-D attention block; the trainer builds the decoder masks from the shifted labels
# why: correct: the masks are ignore masks (1 = blocked), so mask * (-1e20) pushes exactly the padded and future keys to a huge negative logit, and torch.maximum keeps a position blocked if either mask blocks it; the scale is 1/sqrt(d_k) of the per-head width (a float tensor so the sqrt is defined); in the 2-D block the last axis is the one attended over in each view, so dim=-1 is the key axis in both, and k.transpose(-1, -2) swaps the same last two axes as (-2, -1) in either view; -1e20 is representable in the float32 scores
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/Alan-404/Speech-Transformer https://github.com/Alan-404/Speech-Transformer/commit/6ae54141655e5e5d5f9d502b43759258e5af257a model/utils/attention.py
import torch
import torch.nn as nn


def scaled_attention(q, k, v, mask=None):
    d_k = torch.tensor(k.size(-1)).type(torch.float32)
    scores = torch.matmul(q, k.transpose(-1, -2)) / torch.sqrt(d_k)
    if mask is not None:
        scores += mask * (-1e20)
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, v), weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, heads: int):
        super().__init__()
        self.d_model, self.heads = d_model, heads
        self.d_head = d_model // heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def _split(self, x):
        b, n = x.size(0), x.size(1)
        return torch.permute(torch.reshape(x, (b, n, self.heads, self.d_head)), (0, 2, 1, 3))

    def forward(self, q, k, v, mask=None):
        b, n = q.size(0), q.size(1)
        out, weights = scaled_attention(self._split(self.w_q(q)), self._split(self.w_k(k)), self._split(self.w_v(v)), mask)
        out = out.permute((0, 2, 1, 3)).reshape((b, n, self.d_model))
        return self.w_o(out), weights


class TimeFreqAttention(nn.Module):
    """2-D attention on (batch, channels, time, freq) feature maps."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv_q = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv_k = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv_v = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv_o = nn.Conv2d(2 * channels, channels, 3, padding=1)

    def forward(self, x):
        q, k, v = self.conv_q(x), self.conv_k(x), self.conv_v(x)
        # attend over frequency: (B, C, T, F)
        along_freq, _ = scaled_attention(q, k, v)
        # attend over time: (B, C, F, T)
        q_t, k_t, v_t = (torch.permute(t, (0, 1, 3, 2)) for t in (q, k, v))
        along_time, _ = scaled_attention(q_t, k_t, v_t)
        along_time = torch.permute(along_time, (0, 1, 3, 2))
        return self.conv_o(torch.concat((along_time, along_freq), dim=1))
