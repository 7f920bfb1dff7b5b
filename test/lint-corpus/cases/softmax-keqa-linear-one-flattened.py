# case: softmax-keqa-linear-one-flattened
# modelled-on: DEEP-PolyU/KEQA_WSDM19 https://github.com/DEEP-PolyU/KEQA_WSDM19/issues/2
# label: buggy
# pattern: attention pooling over LSTM outputs flattened to (seq_len * batch, features); the score comes from nn.Linear(..., 1), so the softmax's dim=1 is an axis of length 1
# why: softmax over a length-1 axis returns 1.0 for every token, so the "attention" weights all positions equally by 1; the maintainer agreed the softmax must run over the sequence axis
import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbedWithAttention(nn.Module):
    def __init__(self, words_dim: int, hidden_size: int, output_size: int):
        super().__init__()
        self.lstm = nn.LSTM(words_dim, hidden_size, num_layers=2, bidirectional=True)
        self.attn = nn.Sequential(nn.Linear(words_dim + 2 * hidden_size, hidden_size), nn.Tanh(), nn.Linear(hidden_size, 1))
        self.hidden2out = nn.Linear(2 * hidden_size, output_size)

    def forward(self, x):
        # x: (seq_len, batch, words_dim)
        outputs, _ = self.lstm(x)  # (seq_len, batch, 2 * hidden)
        seq_len, batch = outputs.shape[0], outputs.shape[1]
        x = x.view(-1, x.size(2))  # (seq_len * batch, words_dim)
        outputs = outputs.view(-1, outputs.size(2))  # (seq_len * batch, 2 * hidden)
        attn_weights = F.softmax(self.attn(torch.cat((x, outputs), 1)), dim=1)  # expect: ATT001
        attn_applied = (attn_weights * outputs).view(seq_len, batch, -1)
        return self.hidden2out(attn_applied.sum(dim=0))
