# case: t43dd-14-clean
# modelled-on: arnavmishra4/From-RNNs-to-Bahdanau-Attention-A-Research-Level-Implementation-in-PyTorch https://github.com/arnavmishra4/From-RNNs-to-Bahdanau-Attention-A-Research-Level-Implementation-in-PyTorch/commit/65bb37a70e9dade05988781adf5e282b741db404
# label: correct
# class: clean
# pattern: Bahdanau attention for a time-series regressor: energies `tanh(W_a(h_final.unsqueeze(1)) + U_a(outputs))`, scores `v_a(energy)` of shape (B, T, 1), `softmax(score, dim=1)`, context `bmm(weights.transpose(1, 2), outputs).squeeze(1)`; the outputs come from a batch_first bidirectional `nn.LSTM` in another module, whose final hidden state (the last two directions of h_n concatenated) is the query
# why: correct: the encoder is batch_first, so outputs are (B, T, 2H) and axis 1 of the (B, T, 1) scores is time, the axis the context sums over; transposing the weights to (B, 1, T) before bmm with (B, T, 2H) is the weighted sum over T, not a product over the query axis; the last axis of the scores has length 1 and is rightly not the softmax axis
# looks-like: ATT001, ATT005
# source: https://github.com/arnavmishra4/From-RNNs-to-Bahdanau-Attention-A-Research-Level-Implementation-in-PyTorch https://github.com/arnavmishra4/From-RNNs-to-Bahdanau-Attention-A-Research-Level-Implementation-in-PyTorch/commit/65bb37a70e9dade05988781adf5e282b741db404 models/attention.py
import torch
import torch.nn as nn


class AdditiveAttention(nn.Module):
    def __init__(self, hidden_dim, bidirectional=True):
        super().__init__()
        width = hidden_dim * (2 if bidirectional else 1)
        self.W_a = nn.Linear(width, hidden_dim)
        self.U_a = nn.Linear(width, hidden_dim)
        self.v_a = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, outputs, final_hidden):
        energy = torch.tanh(self.W_a(final_hidden.unsqueeze(1)) + self.U_a(outputs))
        score = self.v_a(energy)
        weights = torch.softmax(score, dim=1)
        context = torch.bmm(weights.transpose(1, 2), outputs).squeeze(1)
        return context, weights
