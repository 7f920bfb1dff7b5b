import torch
import torch.nn as nn
from nn_utils import masked_normalise


class LuongDecoder(nn.Module):
    def __init__(self, hid, vocab):
        super().__init__()
        self.W = nn.Linear(hid, hid, bias=False)
        self.cell = nn.GRUCell(hid, hid)
        self.out = nn.Linear(2 * hid, vocab)

    def step(self, y_emb, h, enc_out, src_valid):
        # enc_out: (S, B, H) time-major; src_valid: (S, B)
        h = self.cell(y_emb, h)
        e = (self.W(enc_out) * h.unsqueeze(0)).sum(-1)  # (S, B)
        a = masked_normalise(e, src_valid, axis=0)
        ctx = (a.unsqueeze(-1) * enc_out).sum(0)  # (B, H)
        return self.out(torch.cat([h, ctx], -1)), h
