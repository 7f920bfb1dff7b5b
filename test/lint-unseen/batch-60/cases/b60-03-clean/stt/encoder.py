# case: b60-03-clean
# modelled-on: LuisDehlwes/conformer-stt https://github.com/LuisDehlwes/conformer-stt/commit/b4e7887ee25693cf775f4ee3aaa1059f83a25161
# label: correct
# class: clean
# pattern: a Conformer-CTC speech-to-text encoder (a folder: a convolutional front end divides the frame count by four and returns the new lengths; the encoder turns those lengths into `pad = arange(T) >= lengths[:, None]`, True on frames past the end of each utterance, and hands it to every Conformer layer, whose nn.MultiheadAttention(batch_first=True) gets it as key_padding_mask; sinusoidal positions are added before the layers)
# why: correct: for nn.MultiheadAttention a boolean key_padding_mask is True on keys to ignore, and `arange(T) >= lengths` is True exactly on the padded frames; the lengths are reduced with the same formula as the convolutions, so the mask lines up with the subsampled frames; every utterance keeps at least one frame, so no row is all masked; the attention module scales by the per-head width itself
# looks-like: ATT002, ATT003
# source: https://github.com/LuisDehlwes/conformer-stt https://github.com/LuisDehlwes/conformer-stt/commit/b4e7887ee25693cf775f4ee3aaa1059f83a25161 src/model/encoder.py
import math

import torch
import torch.nn as nn

from stt.block import ConformerLayer
from stt.subsample import FrameReducer


class SinePositions(nn.Module):
    def __init__(self, d_model, max_len=10000, p=0.1):
        super().__init__()
        t = torch.arange(max_len, dtype=torch.float).unsqueeze(1)
        rate = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        table = torch.zeros(1, max_len, d_model)
        table[0, :, 0::2], table[0, :, 1::2] = torch.sin(t * rate), torch.cos(t * rate)
        self.register_buffer("table", table)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return self.drop(x + self.table[:, : x.size(1)])


class SpeechEncoder(nn.Module):
    def __init__(self, n_mels=80, d_model=256, layers=12, heads=4, d_ff=1024, kernel=31, p=0.1, channels=256):
        super().__init__()
        self.front = FrameReducer(n_mels, d_model, channels)
        self.positions = SinePositions(d_model, p=p)
        self.layers = nn.ModuleList(ConformerLayer(d_model, heads, d_ff, kernel, p) for _ in range(layers))

    def forward(self, mels: torch.Tensor, mel_lengths: torch.Tensor):
        """mels: (B, n_mels, T); mel_lengths: (B,). Returns (B, T', d_model) and the T' lengths."""
        x, lengths = self.front(mels, mel_lengths)
        x = self.positions(x)
        frames = torch.arange(x.size(1), device=x.device)
        pad = frames.unsqueeze(0) >= lengths.unsqueeze(1)      # True = padding frame
        for layer in self.layers:
            x = layer(x, pad)
        return x, lengths

    @classmethod
    def from_config(cls, cfg: dict) -> "SpeechEncoder":
        enc = cfg.get("encoder", cfg)
        keys = ("n_mels", "d_model", "layers", "heads", "d_ff", "kernel", "p", "channels")
        return cls(**{k: enc[k] for k in keys if k in enc})
