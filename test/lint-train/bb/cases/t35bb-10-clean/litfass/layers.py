import math

import torch
import torch.nn as nn
from torch.nn import TransformerEncoderLayer
from torch.nn.utils.rnn import pad_sequence


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, float(0.0))
    return mask


def create_mask(src, tgt, pad_idx):
    src_seq_len = src.shape[1]
    tgt_seq_len = tgt.shape[1]
    tgt_mask = generate_square_subsequent_mask(tgt_seq_len)
    src_mask = torch.zeros((src_seq_len, src_seq_len)).type(torch.bool)
    src_padding_mask = src == pad_idx
    tgt_padding_mask = tgt == pad_idx
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        x = x + self.pe[:, : x.size(1), :].to(x.dtype)
        return self.dropout(x)


class ConformerEncoderLayer(TransformerEncoderLayer):
    """PyTorch's encoder layer with its feed-forward block replaced by two 1-D convolutions."""

    def __init__(self, *args, **kwargs):
        old_kwargs = {k: v for k, v in kwargs.items() if "conv_" not in k}
        super().__init__(*args, **old_kwargs)
        del self.linear1
        del self.linear2
        self.conv1 = nn.Conv1d(kwargs["conv_in"], kwargs["conv_filter_size"],
                               kernel_size=kwargs["conv_kernel"][0], padding="same")
        self.conv2 = nn.Conv1d(kwargs["conv_filter_size"], kwargs["conv_in"],
                               kernel_size=kwargs["conv_kernel"][1], padding="same")

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _ff_block(self, x):
        x = self.conv2(self.dropout(self.activation(self.conv1(x.transpose(1, 2))))).transpose(1, 2)
        return self.dropout2(x)


class LengthRegulator(nn.Module):
    """Repeats each phone's hidden state by its duration; returns the frames and a mask that is True on padding."""

    def forward(self, x, durations, max_length=None):
        repeated_list = [torch.repeat_interleave(x[i], durations[i], dim=0) for i in range(x.shape[0])]
        lengths = torch.tensor([t.shape[0] for t in repeated_list]).long()
        max_length = min(lengths.max(), int(max_length))
        mask = ~(torch.arange(max_length).expand(len(lengths), max_length) < lengths.unsqueeze(1)).to(x.device)
        out = pad_sequence(repeated_list, batch_first=True, padding_value=0)
        out = out[:, :max_length]
        return out, mask


class VariancePredictor(nn.Module):
    """Predicts one value per position (duration, pitch, energy); padded positions are set to 0."""

    def __init__(self, in_channels, filter_size, kernel_size, dropout):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(in_channels, filter_size, kernel_size, padding="same"), nn.ReLU(), nn.Dropout(dropout),
            nn.Conv1d(filter_size, filter_size, kernel_size, padding="same"), nn.ReLU(), nn.Dropout(dropout),
        )
        self.linear = nn.Linear(filter_size, 1)

    def forward(self, x, mask=None):
        out = self.conv(x.transpose(1, 2)).transpose(1, 2)
        out = self.linear(out).squeeze(-1)
        if mask is not None:
            out = out.masked_fill(mask, 0)
        return out
