# case: b56-03-clean
# modelled-on: A-SHOJAEI/streaming-asr-conformer-librispeech https://github.com/A-SHOJAEI/streaming-asr-conformer-librispeech/commit/fb8f4141943626556d27f6704b0c48e1986a7a52
# label: correct
# class: clean
# pattern: a Conformer-CTC speech encoder with an optional chunked streaming mode, a folder: the model computes a boolean key padding mask from the subsampled lengths and, in streaming mode, an additive chunk mask from a helper module, and hands both to every block's batch-first nn.MultiheadAttention
# why: correct: the padding mask is True at frames at or past each utterance's length, which is what key_padding_mask means (True = ignore); the chunk mask from the helper is 0.0 where a frame may attend and -inf where it may not, which is what a float attn_mask means, and each row keeps at least its own chunk; the look-ahead inside a chunk is the design of chunked streaming attention, not a causal mask applied wrongly; the attention scale is nn.MultiheadAttention's own; there is no cache
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/A-SHOJAEI/streaming-asr-conformer-librispeech https://github.com/A-SHOJAEI/streaming-asr-conformer-librispeech/commit/fb8f4141943626556d27f6704b0c48e1986a7a52 src/streaming_asr/models/conformer.py
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from chunk_mask import chunk_attention_bias


class SelfAttentionModule(nn.Module):
    def __init__(self, width: int, heads: int, p: float):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, heads, dropout=p, batch_first=True)
        self.drop = nn.Dropout(p)

    def forward(self, x, *, bias: Optional[torch.Tensor], pad: Optional[torch.Tensor]):
        y = self.norm(x)
        y, _ = self.attn(y, y, y, attn_mask=bias, key_padding_mask=pad, need_weights=False)
        return self.drop(y)


class ConvModule(nn.Module):
    def __init__(self, width: int, kernel: int, p: float):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.pw_in = nn.Conv1d(width, 2 * width, 1)
        self.dw = nn.Conv1d(width, width, kernel, padding=kernel // 2, groups=width)
        self.bn = nn.BatchNorm1d(width)
        self.pw_out = nn.Conv1d(width, width, 1)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        y = F.glu(self.pw_in(self.norm(x).transpose(1, 2)), dim=1)
        y = self.pw_out(F.silu(self.bn(self.dw(y))))
        return self.drop(y.transpose(1, 2))


class Block(nn.Module):
    def __init__(self, width: int, heads: int, kernel: int, p: float):
        super().__init__()
        ff = lambda: nn.Sequential(nn.LayerNorm(width), nn.Linear(width, 4 * width), nn.SiLU(), nn.Dropout(p), nn.Linear(4 * width, width))
        self.ff_a, self.ff_b = ff(), ff()
        self.mhsa = SelfAttentionModule(width, heads, p)
        self.conv = ConvModule(width, kernel, p)
        self.final = nn.LayerNorm(width)

    def forward(self, x, *, bias, pad):
        x = x + 0.5 * self.ff_a(x)
        x = x + self.mhsa(x, bias=bias, pad=pad)
        x = x + self.conv(x)
        x = x + 0.5 * self.ff_b(x)
        return self.final(x)


@dataclass(frozen=True)
class EncoderSettings:
    n_mels: int = 80
    vocab: int = 256
    width: int = 256
    heads: int = 4
    depth: int = 12
    kernel: int = 31
    p: float = 0.1
    mode: str = "full"  # "full" or "chunked"
    chunk: Optional[int] = None
    history_chunks: Optional[int] = None


class StreamingCTC(nn.Module):
    def __init__(self, cfg: EncoderSettings):
        super().__init__()
        self.cfg = cfg
        self.front = nn.Sequential(nn.Conv2d(1, cfg.width, 3, 2, 1), nn.ReLU(), nn.Conv2d(cfg.width, cfg.width, 3, 2, 1), nn.ReLU())
        self.proj = nn.Linear(cfg.width * ((cfg.n_mels + 3) // 4), cfg.width)
        self.blocks = nn.ModuleList([Block(cfg.width, cfg.heads, cfg.kernel, cfg.p) for _ in range(cfg.depth)])
        self.head = nn.Linear(cfg.width, cfg.vocab)

    @staticmethod
    def padding(lengths: torch.Tensor, frames: int) -> torch.Tensor:
        steps = torch.arange(frames, device=lengths.device)[None, :]
        return steps >= lengths[:, None]  # True where the utterance has ended

    def forward(self, feats: torch.Tensor, lengths: torch.Tensor):
        x = self.front(feats.unsqueeze(1))                   # (B, C, T', F')
        b, c, t, f = x.shape
        x = self.proj(x.permute(0, 2, 1, 3).reshape(b, t, c * f))
        lengths = ((lengths + 1) // 2 + 1) // 2
        pad = self.padding(lengths.clamp_min(1), t)

        bias = None
        if self.cfg.mode == "chunked":
            bias = chunk_attention_bias(t, self.cfg.chunk, self.cfg.history_chunks, x.device)
        for block in self.blocks:
            x = block(x, bias=bias, pad=pad)
        return F.log_softmax(self.head(x), dim=-1).transpose(0, 1), lengths
