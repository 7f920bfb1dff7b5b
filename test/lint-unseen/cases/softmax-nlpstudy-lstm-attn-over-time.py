# case: softmax-nlpstudy-lstm-attn-over-time
# modelled-on: ssw-nlp-study-group/nlp_study https://github.com/ssw-nlp-study-group/nlp_study/pull/2
# label: correct
# class: fixed
# pattern: LSTM + dot attention with a time-major LSTM output: the scores come from bmm of the batch-major output with the last hidden state, are permuted back to time-major and squeezed to (T, B), and the context is a bmm that contracts over T after unsqueeze/transpose
# why: with the PR applied the softmax runs over axis 0 of the (T, B) = [3, 10] scores, the time axis that the final bmm contracts; the dot scores are unscaled, as in Luong dot attention
# looks-like: ATT001, ATT003
# source: https://github.com/ssw-nlp-study-group/nlp_study https://github.com/ssw-nlp-study-group/nlp_study/commit/0c4e3092745e396e38a40261ca493091da1c0997 nlp/lstm_with_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from nlp.lstm import lstm_model


# LSTM with an attention layer over its outputs
class net(nn.Module):
    def __init__(self, n_class, n_emb, hidden_sz):
        super(net, self).__init__()
        self.hidden_sz = hidden_sz
        self.emb = nn.Embedding(n_class + 1, n_emb)
        self.lstm = lstm_model(n_emb, self.hidden_sz)
        self.fc = nn.Linear(hidden_sz, n_class)

    # weight the past lstm outputs with the information kept in h_t
    def attn(self, lstm_output, h_t):
        # lstm_output [3, 10, 16]  h_t [10, 16]  # [T B C]
        h_t = h_t.unsqueeze(0)
        # [10, 16, 1]
        h_t = h_t.permute(1, 2, 0)
        lstm_output = lstm_output.permute(1, 0, 2)

        attn_weights = torch.bmm(lstm_output, h_t)
        attn_weights = attn_weights.permute(1, 0, 2).squeeze()

        # [3, 10]
        attention = F.softmax(attn_weights, 0)
        # bmm: [10, 16, 3] [10, 3, 1]
        attn_out = torch.bmm(lstm_output.transpose(1, 2), attention.unsqueeze(-1).transpose(1, 0))
        return attn_out.squeeze()

    def forward(self, x):
        # x [10, 3]
        x = self.emb(x.long())
        # x [10, 3, 16]
        lstm_output, (h_t, c_t) = self.lstm(x)
        # h_t [10, 16]
        attn_out = self.attn(lstm_output, h_t)
        return self.fc(attn_out)
