import torch
import torch.nn as nn
import torch.nn.functional as F
from utils import additive_energy


class Decoder(nn.Module):
    def __init__(self, hid):
        super().__init__()
        self.W_enc = nn.Linear(hid, hid, bias=False)
        self.W_dec = nn.Linear(hid, hid)
        self.v = nn.Linear(hid, 1, bias=False)
        self.rnn = nn.GRU(2 * hid, hid, batch_first=True)

    def forward(self, enc, dec_h, src_len):
        e = additive_energy(self.W_enc, self.W_dec, self.v, enc, dec_h)
        T = enc.shape[1]
        e = e.masked_fill(torch.arange(T, device=e.device)[None, :] >= src_len[:, None], -1e9)
        a = F.softmax(e, dim=1)
        ctx = torch.bmm(a.unsqueeze(1), enc)
        return ctx
