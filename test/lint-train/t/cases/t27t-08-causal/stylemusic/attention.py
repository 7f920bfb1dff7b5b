# case: t27t-08-causal
# modelled-on: maximmashkov1/style-music-transformer https://github.com/maximmashkov1/style-music-transformer/commit/5c141566be5cfb481b061303608ac0b1a04d468b
# label: buggy
# class: real-bug
# pattern: a style-conditioned Music Transformer with relative global attention (Srel by the skew trick) and a KV cache kept on the module (self.kv_cache, joined with torch.cat and stored back); forward(x, mask, cache_enabled) asserts one query unless the cache is empty, and fills the causal mask (triu(diagonal=1), -1e9 where True) only when `not self.bidirectional and not cache_enabled`; the model module turns the cache on whenever the model is in eval mode (kv_cache=not self.training) and its generate() prefills the style token and the primer in one call on an empty cache before decoding one token per step
# why: buggy: the docstring says that with the cache on and no cache yet the sequence is evaluated "as normal", but the causal fill is skipped for every cached call, so the prefill of the style token plus the primer (several queries, empty cache) lets each primer token attend to the tokens after it; those unmasked keys and values are then cached and every generated token attends to them, unlike training (the Srel term is masked by _qe_masking, the content scores QK^T are not); one-token decode steps need no mask, the prefill does; unfixed in the repository's history
# source: https://github.com/maximmashkov1/style-music-transformer https://github.com/maximmashkov1/style-music-transformer/commit/5c141566be5cfb481b061303608ac0b1a04d468b layers.py
import math

import torch
import torch.nn.functional as F
from torch import nn


def sequence_mask(length, max_length):
    x = torch.arange(max_length, dtype=length.dtype, device=length.device)
    return x.unsqueeze(0) < length.unsqueeze(1)


class RelativeGlobalAttention(nn.Module):
    """Relative global attention (Huang et al. 2018) with optional KV caching.

    cache_enabled: true during inference
        if no cache yet - evaluate sequence as normal
        if has cache - only expect 1 q per sequence
    """

    def __init__(self, h=4, d=256, max_seq=2048, bidirectional=False):
        super().__init__()
        self.h, self.d, self.dh = h, d, d // h
        self.max_seq = max_seq
        self.bidirectional = bidirectional
        self.qkv = nn.Linear(d, 3 * d)
        self.fc = nn.Linear(d, d)
        self.scale = 1 / math.sqrt(self.dh)
        self.E = nn.Parameter(torch.randn(h, max_seq, self.dh))  # one relative embedding per distance
        self.kv_cache = None  # reset by the model before each generation

    def forward(self, x, mask=None, cache_enabled=False):
        assert not cache_enabled or x.shape[1] == 1 or self.kv_cache is None, \
            "KV cache is enabled, not empty, but the input has more than one position"
        B, S, E = x.shape
        q, k, v = self.qkv(x).reshape(B, S, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)  # 3 x (B, h, S, dh)
        if cache_enabled:
            assert not self.bidirectional, "no KV caching in a bidirectional layer"
            if self.kv_cache is not None:
                c_k, c_v = self.kv_cache
                k = torch.cat((c_k, k), dim=-2)  # (B, h, past + 1, dh)
                v = torch.cat((c_v, v), dim=-2)
                srel = self._single_srel(q, k.shape[-2])
            else:
                srel = self._srel(q)
            self.kv_cache = [k, v]
        else:
            srel = self._srel(q)

        logits = (q @ k.transpose(-1, -2) + srel) * self.scale  # (B, h, S, S_k)
        if not self.bidirectional and not cache_enabled:
            logits.masked_fill_(mask, float("-1e9"))  # expect: ATT008
        weights = F.softmax(logits, -1)
        out = (weights @ v).permute(0, 2, 1, 3).reshape(B, S, E)
        return self.fc(out), weights

    def _single_srel(self, q, length):
        # one query at the end of the sequence: distances length-1 .. 0
        return q @ self.E[:, -length:].transpose(-1, -2)

    def _srel(self, q):
        len_q = q.size(2)
        e = self.E[:, max(0, self.max_seq - len_q):]
        qe = self._qe_masking(q @ e.transpose(-1, -2))
        return self._skewing(qe)

    @staticmethod
    def _skewing(t):
        padded = F.pad(t, [1, 0])
        srel = padded.reshape(-1, t.shape[-1] + 1, t.shape[-2])[:, 1:]
        return srel.reshape(*t.shape)

    @staticmethod
    def _qe_masking(qe):
        # zero the relative terms of distances that point into the future
        lengths = torch.arange(qe.size(-1) - 1, qe.size(-1) - qe.size(-2) - 1, -1, device=qe.device)
        keep = ~sequence_mask(lengths, qe.size(-1))
        return keep.to(qe.dtype) * qe
