import torch
import torch.nn as nn


class Listener(nn.Module):
    def __init__(self, n_feats, hid):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hid, bidirectional=True)
        self.score = nn.Linear(2 * hid, 1)

    def forward(self, x, lengths):
        # x: (B, T, F) from the collate; the GRU is time-major, so turn it first
        out, _ = self.rnn(x.transpose(0, 1))  # (T, B, 2H)
        e = self.score(out).squeeze(-1)  # (T, B)
        T = e.shape[0]
        pad = torch.arange(T, device=x.device)[:, None] >= lengths[None, :].to(x.device)  # (T, B)
        e = e.masked_fill(pad, -1e9)
        alpha = torch.softmax(e, dim=1)
        return (alpha.unsqueeze(-1) * out).sum(0)  # (B, 2H)
