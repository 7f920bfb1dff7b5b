# case: b50-08-clean
# modelled-on: CalBlanco/203_hw3 https://github.com/CalBlanco/203_hw3/commit/879d9b5f1000034dc8b6a1b633fa22a585ea7514
# label: correct
# class: clean
# pattern: a folder: an LSTM abstractive summariser with Bahdanau (additive) attention; the attention module scores each encoder position with V(tanh(W1 q + W2 h_j)), squeezes to (batch, src_len) and returns softmax over dim=1 with a singleton query axis added; the decoder (other file) multiplies those weights (batch, 1, src_len) with the encoder outputs (batch, src_len, hidden) by bmm to form the context
# why: correct: after squeeze(-1) the energies are (batch, src_len), so dim=1 is the source axis and the weights over the source positions sum to one; additive attention has no 1/sqrt(d) factor; unsqueeze(1) makes the weights a (batch, 1, src_len) row that bmm contracts against the src_len axis of the encoder outputs
# looks-like: ATT001, ATT003
# source: https://github.com/CalBlanco/203_hw3 https://github.com/CalBlanco/203_hw3/commit/879d9b5f1000034dc8b6a1b633fa22a585ea7514 src/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.w_query = nn.Linear(hidden, hidden)
        self.w_keys = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1)

    def forward(self, state, enc_out):
        # state: (batch, hidden); enc_out: (batch, src_len, hidden)
        energy = torch.tanh(self.w_query(state).unsqueeze(1) + self.w_keys(enc_out))
        energy = self.v(energy).squeeze(-1)  # (batch, src_len)
        return F.softmax(energy, dim=1).unsqueeze(1)  # (batch, 1, src_len)
