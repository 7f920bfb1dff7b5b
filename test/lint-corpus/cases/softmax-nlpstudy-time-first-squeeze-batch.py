# case: softmax-nlpstudy-time-first-squeeze-batch
# modelled-on: ssw-nlp-study-group/nlp_study https://github.com/ssw-nlp-study-group/nlp_study/pull/2
# label: buggy
# pattern: LSTM + dot attention with a time-first LSTM output [T, B, H]; permute to [B, T, H], bmm with the last state [B, H, 1] gives [B, T, 1], permute(1, 0, 2) and squeeze() give [T, B], softmax(…, 1); the pooling is bmm(outputs.transpose(1, 2), weights.unsqueeze(-1).transpose(1, 0)), the weights as the right operand
# why: after the permute and squeeze, axis 1 is the batch: each time step is normalised across the examples of the batch, while the bmm sums over the T steps; the PR moves the softmax to axis 0 (the sequence axis)
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMWithAttention(nn.Module):
    def __init__(self, n_class, n_emb, hidden_sz):
        super().__init__()
        self.emb = nn.Embedding(n_class + 1, n_emb)
        self.lstm = nn.LSTM(n_emb, hidden_sz)
        self.fc = nn.Linear(hidden_sz, n_class)

    def attn(self, lstm_output, h_t):
        # lstm_output [T, B, H], h_t [B, H]
        h_t = h_t.unsqueeze(0)
        h_t = h_t.permute(1, 2, 0)  # [B, H, 1]
        lstm_output = lstm_output.permute(1, 0, 2)  # [B, T, H]

        attn_weights = torch.bmm(lstm_output, h_t)  # [B, T, 1]
        attn_weights = attn_weights.permute(1, 0, 2).squeeze()  # [T, B]

        attention = F.softmax(attn_weights, 1)  # expect: ATT001
        attn_out = torch.bmm(lstm_output.transpose(1, 2), attention.unsqueeze(-1).transpose(1, 0))
        return attn_out.squeeze()

    def forward(self, x):
        # x [T, B]
        x = self.emb(x.long())
        lstm_output, (h_n, c_n) = self.lstm(x)
        attn_out = self.attn(lstm_output, h_n[-1])
        return self.fc(attn_out)
