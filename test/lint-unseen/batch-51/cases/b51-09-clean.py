# case: b51-09-clean
# modelled-on: yjfingit/SC-Conformer https://github.com/yjfingit/SC-Conformer/commit/f99180ca229ff3a024eef2ab3264527e399633bd
# label: correct
# class: clean
# pattern: a statistics-conditioned Conformer for calibration-free EEG decoding: per-channel statistic tokens are prepended to the patch tokens, rotary codes are built for the head width (the original writes d_model // 4, its head width with four heads) and applied to (B, H, N, D_h) queries and keys, and the encoder's self-attention is F.scaled_dot_product_attention(q, k, v, dropout_p=...) with no mask and no explicit scale inside adaLN-conditioned Conformer blocks; the stat tokens are dropped after the encoder by slicing off the first C positions
# why: correct: SDPA scales by 1/sqrt(head width) by default, so no scale is missing; the encoder is bidirectional over a fixed-length trial (every token is a real patch or statistic token), so neither a causal nor a padding mask is wanted; the rotary table's width matches the head width (d_model // heads with 4 heads) and it is sliced to the sequence length; the original passes its dropout rate to SDPA unconditionally, the case gates it on self.training as torch's own attention modules do
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/yjfingit/SC-Conformer https://github.com/yjfingit/SC-Conformer/commit/f99180ca229ff3a024eef2ab3264527e399633bd src/models/scformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def rotary(n, width, device, base=10000.0):
    half = width // 2
    inv = base ** (-torch.arange(half, device=device) / half)
    ang = torch.arange(n, device=device)[:, None] * inv[None, :]
    return ang.cos(), ang.sin()


def rotate(x, cos, sin):
    # x: (B, H, N, Dh)
    h = x.shape[-1] // 2
    n = x.shape[-2]
    c, s = cos[:n][None, None], sin[:n][None, None]
    return torch.cat([x[..., :h] * c - x[..., h:] * s, x[..., :h] * s + x[..., h:] * c], dim=-1)


class SelfAttention(nn.Module):
    def __init__(self, d, heads, p=0.1):
        super().__init__()
        self.heads, self.dh, self.p = heads, d // heads, p
        self.to_qkv = nn.Linear(d, 3 * d)
        self.to_out = nn.Linear(d, d)

    def forward(self, x, rope=None):
        b, n, d = x.shape
        q, k, v = (t.reshape(b, n, self.heads, self.dh).transpose(1, 2) for t in self.to_qkv(x).chunk(3, dim=-1))
        if rope is not None:
            q, k = rotate(q, *rope), rotate(k, *rope)
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p if self.training else 0.0)
        return self.to_out(y.transpose(1, 2).reshape(b, n, d))


class ConvPart(nn.Module):
    def __init__(self, d, kernel=15, p=0.1):
        super().__init__()
        self.expand = nn.Linear(d, 2 * d)
        self.depthwise = nn.Conv1d(d, d, kernel, padding=kernel // 2, groups=d)
        self.bn = nn.BatchNorm1d(d)
        self.squeeze = nn.Linear(d, d)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        a, g = self.expand(x).chunk(2, dim=-1)
        x = a * torch.sigmoid(g)
        x = self.drop(self.bn(self.depthwise(x.transpose(1, 2))).transpose(1, 2))
        return self.squeeze(F.silu(x))


class ConditionedBlock(nn.Module):
    """Conformer block; each of its four norms gets a (gain, shift) from the trial's statistics."""

    def __init__(self, d, heads, ff, p=0.1):
        super().__init__()
        self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(4))
        self.ff1 = nn.Sequential(nn.Linear(d, ff), nn.SiLU(), nn.Dropout(p), nn.Linear(ff, d), nn.Dropout(p))
        self.ff2 = nn.Sequential(nn.Linear(d, ff), nn.SiLU(), nn.Dropout(p), nn.Linear(ff, d), nn.Dropout(p))
        self.attn = SelfAttention(d, heads, p)
        self.conv = ConvPart(d, p=p)
        self.film = nn.Linear(d, 8 * d)
        nn.init.zeros_(self.film.weight)
        nn.init.zeros_(self.film.bias)

    def forward(self, x, stats, rope):
        gb = self.film(stats).view(x.shape[0], 4, 2, 1, x.shape[-1])
        x = x + 0.5 * self.ff1(self.norms[0](x) * (1 + gb[:, 0, 0]) + gb[:, 0, 1])
        x = x + self.attn(self.norms[1](x) * (1 + gb[:, 1, 0]) + gb[:, 1, 1], rope)
        x = x + self.conv(self.norms[2](x) * (1 + gb[:, 2, 0]) + gb[:, 2, 1])
        return x + 0.5 * self.ff2(self.norms[3](x) * (1 + gb[:, 3, 0]) + gb[:, 3, 1])


class StatConformer(nn.Module):
    def __init__(self, n_ch, n_stats=6, d=96, depth=4, heads=4, ff=192, n_classes=4):
        super().__init__()
        assert d % heads == 0 and (d // heads) % 2 == 0
        self.d, self.heads = d, heads
        self.stat_tok = nn.Linear(n_stats, d)
        self.stat_glob = nn.Sequential(nn.Linear(n_ch * n_stats, 256), nn.GELU(), nn.Linear(256, d))
        self.blocks = nn.ModuleList(ConditionedBlock(d, heads, ff) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_classes)

    def forward(self, patches, stats):
        # patches: (B, N, d) embedded time patches; stats: (B, C, n_stats) per-channel statistics
        n_ch = stats.shape[1]
        glob = self.stat_glob(stats.flatten(1))
        tokens = torch.cat([self.stat_tok(stats), patches], dim=1)
        rope = rotary(tokens.shape[1], self.d // self.heads, tokens.device)
        for blk in self.blocks:
            tokens = blk(tokens, glob, rope)
        return self.head(self.norm(tokens[:, n_ch:].mean(dim=1)))
