# case: b58-04-clean
# modelled-on: smdokimm/ecg-transformer-anomaly https://github.com/smdokimm/ecg-transformer-anomaly/commit/5e8c16eae8c4a013ef6dc570899951a34459acda
# label: correct
# class: clean
# pattern: a transformer autoencoder that reconstructs single ECG beats for anomaly detection (a folder: the settings dict gives width 64 and 16 heads, so 4 features per head; the model's hand-written multi-head attention splits the projections into heads of width // heads, divides the scores by sqrt of that head width and takes the softmax over the keys; no mask, every beat has the same 140 samples; the training loop reconstructs each batch under an L1 loss)
# why: correct: the scale is 1/sqrt(d_head) with d_head = 64 // 16 = 4 from the settings, the per-head width the dot products run over (a small head width, but the right one); keys are transposed over their last two axes after the heads are split; the softmax is over the key axis; with equal-length beats there is nothing to mask, and the encoder is bidirectional on purpose (it reconstructs whole beats)
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/smdokimm/ecg-transformer-anomaly https://github.com/smdokimm/ecg-transformer-anomaly/commit/5e8c16eae8c4a013ef6dc570899951a34459acda models/transformer.py
import math

import torch
import torch.nn as nn

from settings import SETTINGS


def sine_table(length: int, width: int) -> torch.Tensor:
    pos = torch.arange(length, dtype=torch.float).unsqueeze(1)
    freq = torch.exp(torch.arange(0, width, 2, dtype=torch.float) * (-math.log(10000.0) / width))
    table = torch.zeros(length, width)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    return table.unsqueeze(0)


class BeatSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        assert width % heads == 0
        self.heads, self.d_head = heads, width // heads
        self.wq, self.wk, self.wv = nn.Linear(width, width), nn.Linear(width, width), nn.Linear(width, width)
        self.wo = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, w = x.shape

        def split(z):
            return z.view(b, t, self.heads, self.d_head).transpose(1, 2)

        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        att = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_head), dim=-1)
        return self.wo(torch.matmul(att, v).transpose(1, 2).contiguous().view(b, t, w))


class BeatLayer(nn.Module):
    def __init__(self, width: int, heads: int, ff_width: int):
        super().__init__()
        self.attn = BeatSelfAttention(width, heads)
        self.norm_a, self.norm_b = nn.LayerNorm(width), nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, ff_width), nn.ReLU(), nn.Linear(ff_width, width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.norm_a(x + self.attn(x))
        return self.norm_b(x + self.ff(x))


class BeatAutoencoder(nn.Module):
    def __init__(self, cfg: dict, channels: int = 1):
        super().__init__()
        self.lift = nn.Linear(channels, cfg["width"])
        self.register_buffer("pos", sine_table(cfg["beat_len"], cfg["width"]))
        self.layers = nn.ModuleList(
            BeatLayer(cfg["width"], cfg["heads"], cfg["ff_width"]) for _ in range(cfg["depth"])
        )
        self.lower = nn.Sequential(nn.Linear(cfg["width"], cfg["ff_width"]), nn.ReLU(), nn.Linear(cfg["ff_width"], channels))

    def forward(self, beats: torch.Tensor) -> torch.Tensor:
        h = self.lift(beats) + self.pos[:, : beats.size(1)]
        for layer in self.layers:
            h = layer(h)
        return self.lower(h)


def fit(train_loader, device: str = "cpu") -> BeatAutoencoder:
    model = BeatAutoencoder(SETTINGS).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=SETTINGS["lr"])
    loss_fn = nn.L1Loss()
    for _ in range(SETTINGS["epochs"]):
        model.train()
        for beats, _ in train_loader:
            beats = beats.to(device)
            loss = loss_fn(model(beats), beats)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model
