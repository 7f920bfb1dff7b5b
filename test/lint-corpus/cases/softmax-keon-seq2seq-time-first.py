# case: softmax-keon-seq2seq-time-first
# modelled-on: keon/seq2seq https://github.com/keon/seq2seq/issues/16
# label: correct
# pattern: additive attention on time-first encoder outputs (T, B, H): transpose(0, 1) to batch-first, energies (B, T), softmax over dim=1, then bmm with encoder outputs transposed back
# why: transpose(0, 1) converts the RNN's time-first layout, it is not a key transpose; dim 1 of (B, T) is the encoder time axis; additive attention has no sqrt(d) scale
# looks-like: ATT001, ATT003, ATT005
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, hidden_size: int):
        super().__init__()
        self.hidden_size = hidden_size
        self.attn = nn.Linear(self.hidden_size * 2, hidden_size)
        self.v = nn.Parameter(torch.rand(hidden_size))
        stdv = 1.0 / math.sqrt(self.v.size(0))
        self.v.data.uniform_(-stdv, stdv)

    def forward(self, hidden, encoder_outputs):
        # hidden: (B, H) decoder state; encoder_outputs: (T, B, H)
        timestep = encoder_outputs.size(0)
        h = hidden.repeat(timestep, 1, 1).transpose(0, 1)  # (B, T, H)
        encoder_outputs = encoder_outputs.transpose(0, 1)  # (B, T, H)
        attn_energies = self.score(h, encoder_outputs)  # (B, T)
        return F.softmax(attn_energies, dim=1).unsqueeze(1)  # (B, 1, T)

    def score(self, hidden, encoder_outputs):
        energy = F.relu(self.attn(torch.cat([hidden, encoder_outputs], 2)))  # (B, T, H)
        energy = energy.transpose(1, 2)  # (B, H, T)
        v = self.v.repeat(encoder_outputs.size(0), 1).unsqueeze(1)  # (B, 1, H)
        energy = torch.bmm(v, energy)  # (B, 1, T)
        return energy.squeeze(1)


class Decoder(nn.Module):
    def __init__(self, embed_size: int, hidden_size: int, output_size: int, n_layers: int = 1):
        super().__init__()
        self.embed = nn.Embedding(output_size, embed_size)
        self.attention = Attention(hidden_size)
        self.gru = nn.GRU(hidden_size + embed_size, hidden_size, n_layers)
        self.out = nn.Linear(hidden_size * 2, output_size)

    def forward(self, input, last_hidden, encoder_outputs):
        embedded = self.embed(input).unsqueeze(0)  # (1, B, E)
        attn_weights = self.attention(last_hidden[-1], encoder_outputs)  # (B, 1, T)
        context = attn_weights.bmm(encoder_outputs.transpose(0, 1))  # (B, 1, H)
        context = context.transpose(0, 1)  # (1, B, H)
        rnn_input = torch.cat([embedded, context], 2)
        output, hidden = self.gru(rnn_input, last_hidden)
        output = self.out(torch.cat([output.squeeze(0), context.squeeze(0)], 1))
        return F.log_softmax(output, dim=1), hidden, attn_weights
