import torch
import torch.nn as nn

from lengths import keep_from_lengths
from location_heads import HeadedLocationAttention


class AttentionDecoder(nn.Module):
    def __init__(self, n_mels=80, enc_dim=512, rnn_dim=1024, att_dim=128):
        super().__init__()
        self.rnn = nn.LSTMCell(n_mels + enc_dim, rnn_dim)
        self.memory_proj = nn.Linear(enc_dim, att_dim, bias=False)
        self.attention = HeadedLocationAttention(rnn_dim, enc_dim, att_dim)

    def reset(self, memory: torch.Tensor, memory_lengths: torch.Tensor):
        b, t, _ = memory.shape
        self.memory = memory
        self.processed = self.memory_proj(memory)
        self.h = memory.new_zeros(b, self.rnn.hidden_size)
        self.c = memory.new_zeros(b, self.rnn.hidden_size)
        self.align = memory.new_zeros(b, t)
        self.align_cum = memory.new_zeros(b, t)
        self.context = memory.new_zeros(b, memory.size(2))
        self.mask = ~keep_from_lengths(memory_lengths)          # True on padded encoder steps

    def step(self, frame: torch.Tensor):
        self.h, self.c = self.rnn(torch.cat([frame, self.context], dim=-1), (self.h, self.c))
        cat = torch.stack([self.align, self.align_cum], dim=1)
        self.context, self.align = self.attention(self.h, self.memory, self.processed, cat, self.mask)
        self.align_cum = self.align_cum + self.align
        return self.context, self.align
