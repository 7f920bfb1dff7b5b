# case: b27-05-clean
# modelled-on: jason9693/MusicTransformer-pytorch https://github.com/jason9693/MusicTransformer-pytorch/commit/fe296678c99030adb073768112b54ee6cebef907
# label: correct
# class: clean
# pattern: a Music Transformer (relative global attention) port from TensorFlow: heads split with reshape + permute(0, 2, 1, 3), keys turned with k.permute(0, 1, 3, 2), relative logits from an einsum of the queries with a window of a relative embedding matrix, masked and "skewed" by pad-and-reshape, added to q @ kᵀ, the sum divided by sqrt(d // h), and a mask added as mask * -1e9 before F.softmax(logits, -1); the mask comes from a helper module that ORs a pad mask (tokens == pad) with ~sequence_mask(arange(1, n + 1), n), and the decoder model passes it as the look-ahead mask
# why: correct: the mask is True on padded keys and on future keys (row i of the sequence mask is True for j <= i, so its negation is True for j > i), and True entries receive -1e9, so the polarity fits an additive mask; the scale is sqrt of the per-head width dh = d // h, applied once to the sum of content and relative logits; k.permute(0, 1, 3, 2) swaps exactly the last two axes; softmax over the last (key) axis
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/jason9693/MusicTransformer-pytorch https://github.com/jason9693/MusicTransformer-pytorch/commit/fe296678c99030adb073768112b54ee6cebef907 custom/layers.py
import math

import torch
import torch.nn.functional as F

from musictr.masking import sequence_mask


class RelativeGlobalAttention(torch.nn.Module):
    def __init__(self, h=4, d=256, max_seq=2048):
        super().__init__()
        self.h = h
        self.d = d
        self.dh = d // h
        self.max_seq = max_seq
        self.Wq = torch.nn.Linear(d, d)
        self.Wk = torch.nn.Linear(d, d)
        self.Wv = torch.nn.Linear(d, d)
        self.fc = torch.nn.Linear(d, d)
        self.E = torch.randn([max_seq, self.dh], requires_grad=False)

    def forward(self, inputs, mask=None):
        q, k, v = inputs
        q = self.Wq(q).reshape(q.size(0), q.size(1), self.h, -1).permute(0, 2, 1, 3)  # (B, h, Lq, dh)
        k = self.Wk(k).reshape(k.size(0), k.size(1), self.h, -1).permute(0, 2, 1, 3)
        v = self.Wv(v).reshape(v.size(0), v.size(1), self.h, -1).permute(0, 2, 1, 3)
        len_q, len_k = q.size(2), k.size(2)

        E = self.E[max(0, self.max_seq - len_q):, :].to(q.device)
        QE = torch.einsum('bhld,md->bhlm', [q, E])
        QE = self._mask_relative(QE)
        Srel = self._skew(QE, len_q, len_k)

        Kt = k.permute(0, 1, 3, 2)
        logits = torch.matmul(q, Kt) + Srel
        logits = logits / math.sqrt(self.dh)
        if mask is not None:
            logits += (mask.to(torch.int64) * -1e9).to(logits.dtype)

        weights = F.softmax(logits, -1)
        out = torch.matmul(weights, v).permute(0, 2, 1, 3)
        out = out.reshape(out.size(0), -1, self.d)
        return self.fc(out), weights

    @staticmethod
    def _skew(t, len_q, len_k):
        padded = F.pad(t, [1, 0, 0, 0, 0, 0, 0, 0])
        reshaped = padded.reshape(padded.size(0), padded.size(1), padded.size(-1), padded.size(-2))
        Srel = reshaped[:, :, 1:, :]
        if len_k > len_q:
            Srel = F.pad(Srel, [0, 0, 0, 0, 0, 0, 0, len_k - len_q])
        elif len_k < len_q:
            Srel = Srel[:, :, :, :len_k]
        return Srel

    @staticmethod
    def _mask_relative(qe):
        keep = sequence_mask(torch.arange(qe.size(-1) - 1, qe.size(-1) - qe.size(-2) - 1, -1).to(qe.device), qe.size(-1))
        return (~keep).to(qe.dtype) * qe
