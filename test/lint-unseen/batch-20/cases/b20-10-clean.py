# case: b20-10-clean
# modelled-on: deepnetni/zeta https://github.com/deepnetni/zeta/commit/780a6d8ed1337f2c4ce4974fa7868a5dac4ea6db
# label: correct
# class: clean
# pattern: a dual-path speech-enhancement block with nn.MultiheadAttention(batch_first=True) along frequency (no mask) and along time: the time attention builds ones(T, T).triu_(1).bool() (the future) and ones(T, T).tril_(-window).bool() (frames more than a window back) and adds the two boolean masks before passing the sum as attn_mask; the frame-wise views come from einops.rearrange of (B, C, T, F) maps
# why: correct: nn.MultiheadAttention's boolean attn_mask is True where attention is not allowed, and the sum of two bool tensors is their logical or, so each frame sees itself and the window - 1 frames before it; the diagonal is never masked, so no row is empty; the frequency attention over a whole frame needs no mask
# looks-like: ATT002, ATT008
# source: https://github.com/deepnetni/zeta https://github.com/deepnetni/zeta/commit/780a6d8ed1337f2c4ce4974fa7868a5dac4ea6db core/MSA_DPCRN.py
import torch
import torch.nn as nn
from einops import rearrange


class FreqTimeAttention(nn.Module):
    def __init__(self, inp_channel: int, win: int = 10) -> None:
        super().__init__()
        self.attn_f = nn.MultiheadAttention(embed_dim=inp_channel, num_heads=2, batch_first=True)
        self.attn_t = nn.MultiheadAttention(embed_dim=inp_channel, num_heads=2, batch_first=True)
        self.attn_window = win

    def forward(self, k, q, v):
        """k, q, v: (b, c, t, f)"""
        nB = k.shape[0]
        k_ = rearrange(k, "b c t f -> (b t) f c")
        q_ = rearrange(q, "b c t f -> (b t) f c")
        v_ = rearrange(v, "b c t f -> (b t) f c")
        vf, _ = self.attn_f(q_, k_, v_)
        v = v + rearrange(vf, "(b t) f c -> b c t f", b=nB)

        nT = v.shape[2]
        future = torch.ones(nT, nT, device=v.device).triu_(1).bool()  # T x T
        too_old = torch.ones(nT, nT, device=v.device).tril_(-self.attn_window).bool()  # T x T
        mask = future + too_old

        k_ = rearrange(k, "b c t f -> (b f) t c")
        q_ = rearrange(q, "b c t f -> (b f) t c")
        v_ = rearrange(v, "b c t f -> (b f) t c")
        vt, _ = self.attn_t(q_, k_, v_, attn_mask=mask)
        return v + rearrange(vt, "(b f) t c -> b c t f", b=nB)


class EnhanceBlock(nn.Module):
    def __init__(self, channels: int, win: int = 10):
        super().__init__()
        self.to_k = nn.Conv2d(channels, channels, kernel_size=1)
        self.to_q = nn.Conv2d(channels, channels, kernel_size=1)
        self.to_v = nn.Conv2d(channels, channels, kernel_size=1)
        self.attn = FreqTimeAttention(channels, win)

    def forward(self, x):
        # x: (B, C, T, F) spectrogram features, T in frames
        return self.attn(self.to_k(x), self.to_q(x), self.to_v(x))
