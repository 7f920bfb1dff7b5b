# case: t20m-02-clean
# modelled-on: dumitrescustefan/sustain-seq2seq https://github.com/dumitrescustefan/sustain-seq2seq/commit/56ee812bb1523160e844d631b3d8e5737f62d697
# label: correct
# class: clean
# pattern: the Bahdanau (additive) attention of an LSTM seq2seq decoder: the collate function (loaders/standard.py) builds a long 0/1 mask per source sentence, 1 on tokens and 0 on padding; the attention scores every encoder state against the decoder state into energies of shape (batch, seq_len, 1), fills masked_fill_(mask.unsqueeze(-1) == 0, -np.inf) in place, softmaxes over dim=1 (the source positions) and sums weights * values over dim=1; the decoder (components/decoder.py) passes the encoder mask at every step
# why: correct: dim=1 is the source axis of the (batch, seq_len, 1) energies (the last axis has length 1); the mask is a keep mask and == 0 selects padding; the -inf fill cannot empty a row because every sentence has at least one token (the mask varies only along the source axis); this is the author's fix of a fill whose (batch, seq_len) mask did not broadcast against the energies
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/dumitrescustefan/sustain-seq2seq https://github.com/dumitrescustefan/sustain-seq2seq/commit/56ee812bb1523160e844d631b3d8e5737f62d697 models/components/attention/Attention.py
import numpy as np
import torch
import torch.nn as nn


class AdditiveAttention(nn.Module):
    def __init__(self, encoder_size, decoder_size):
        super().__init__()
        self.to_key = nn.Linear(encoder_size, encoder_size, bias=False)
        self.to_value = nn.Linear(encoder_size, encoder_size, bias=False)
        self.to_query = nn.Linear(decoder_size, encoder_size, bias=False)
        self.W1 = nn.Linear(encoder_size, encoder_size, bias=False)
        self.W2 = nn.Linear(encoder_size, encoder_size, bias=False)
        self.v = nn.Linear(encoder_size, 1, bias=False)

    def _energy(self, K, Q):
        # K: [batch, seq_len, enc], Q: [batch, 1, enc] -> [batch, seq_len, 1]
        return self.v(torch.tanh(self.W1(K) + self.W2(Q)))

    def forward(self, enc_output, state_h, mask=None):
        """
        enc_output: [batch, seq_len, enc]; state_h: [layers, batch, dec], the last layer is used;
        mask: [batch, seq_len] of 1 (token) and 0 (padding).
        """
        state_h = state_h[-1].unsqueeze(1)  # [batch, 1, dec]
        K = self.to_key(enc_output)
        V = self.to_value(enc_output)
        Q = self.to_query(state_h)

        energy = self._energy(K, Q)  # [batch, seq_len, 1]
        if mask is not None:
            energy.masked_fill_(mask.unsqueeze(-1) == 0, -np.inf)

        weights = torch.softmax(energy, dim=1)  # over the source positions
        context = torch.sum(weights * V, dim=1)  # [batch, enc]
        return context, weights
