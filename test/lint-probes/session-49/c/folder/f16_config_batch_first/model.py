import torch
import torch.nn as nn
import torch.nn.functional as F
from config import Config


class AttnLSTM(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.lstm = nn.LSTM(cfg.n_feats, cfg.hidden, batch_first=cfg.batch_first)
        self.att = nn.Linear(cfg.hidden, 1)

    def forward(self, x, lengths):
        out, _ = self.lstm(x)  # (B, T, H) since cfg.batch_first
        e = self.att(out).squeeze(-1)  # (B, T)
        T = out.shape[1]
        valid = torch.arange(T, device=x.device)[None, :] < lengths[:, None]
        e = e.masked_fill(~valid, -1e9)
        w = F.softmax(e, dim=1)
        return torch.bmm(w.unsqueeze(1), out).squeeze(1)


model = AttnLSTM(Config())
