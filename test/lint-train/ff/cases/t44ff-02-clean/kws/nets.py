# case: t44ff-02-clean
# modelled-on: Kirili4ik/kws-attention-pytorch https://github.com/Kirili4ik/kws-attention-pytorch/commit/713c1d64d0b92ecadd0278281dc9c18163ef5a96
# label: correct
# class: clean
# pattern: keyword spotting with a CRNN and attention pooling: the GRU runs time-major (seq_len, B, H), the energy layer is applied frame by frame to (B, H) slices giving (B, 1) each, the frames are joined with `cat(e, dim=1)` into (B, seq_len), and the pooling softmaxes that over `dim=-1` before `bmm` with the batch-first outputs; the streaming script (another module) keeps a sliding list of per-frame energies and re-runs the pooling
# why: correct: the energies are (B, seq_len) after the concatenation over dim 1, so `softmax(e, dim=-1)` normalises over time, the axis the bmm sums over (the outputs are transposed to (B, seq_len, H) first); the time-major GRU output is only iterated frame by frame, never softmaxed
# looks-like: ATT001
# source: https://github.com/Kirili4ik/kws-attention-pytorch https://github.com/Kirili4ik/kws-attention-pytorch/commit/713c1d64d0b92ecadd0278281dc9c18163ef5a96 models.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def depthwise_sep(c_in, c_out, kernel, stride):
    return nn.Sequential(
        nn.Conv1d(c_in, c_in, kernel[1], stride=stride[1], groups=c_in),
        nn.Conv1d(c_in, c_out, kernel_size=1, stride=stride[0], groups=int(c_in / kernel[0])),
    )


class ConvGRU(nn.Module):
    def __init__(self, n_mels, hid, kernel, stride, layers):
        super().__init__()
        self.conv = depthwise_sep(n_mels, hid, kernel, stride)
        self.rnn = nn.GRU(input_size=hid, hidden_size=hid, num_layers=layers, dropout=0.1, bidirectional=True)

    def forward(self, mel, state):
        h = self.conv(mel)                      # (B, hid, T)
        h = h.transpose(0, 1).transpose(0, 2)   # (T, B, hid)
        out, state = self.rnn(h, state)         # (T, B, 2 * hid)
        return out, state


class FrameEnergy(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.proj = nn.Linear(size, size)
        self.v = nn.Linear(size, 1, bias=False)

    def forward(self, frame):
        return self.v(torch.tanh(self.proj(frame)))   # (B, 1)


class PoolAndClassify(nn.Module):
    def __init__(self, size, n_classes):
        super().__init__()
        self.cls = nn.Linear(size, n_classes, bias=False)

    def forward(self, energies, frames):
        frames = frames.transpose(0, 1)                   # (B, T, size)
        alpha = F.softmax(energies, dim=-1).unsqueeze(1)  # (B, 1, T)
        ctx = torch.bmm(alpha, frames).squeeze()
        return F.log_softmax(self.cls(ctx), dim=-1)


class Spotter(nn.Module):
    def __init__(self, encoder, energy, pool):
        super().__init__()
        self.encoder = encoder
        self.energy = energy
        self.pool = pool

    def forward(self, mel, state):
        frames, state = self.encoder(mel, state)
        scores = [self.energy(f) for f in frames]   # T tensors of (B, 1)
        scores = torch.cat(scores, dim=1)           # (B, T)
        return self.pool(scores, frames)
