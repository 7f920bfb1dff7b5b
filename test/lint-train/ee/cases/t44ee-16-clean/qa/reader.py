import torch
import torch.nn as nn

from qa.cq_attention import ContextQuery
from qa.helpers import mask_logits


class SpanReader(nn.Module):
    def __init__(self, embed, encoder, stacked, d_model):
        super().__init__()
        self.embed = embed
        self.encoder = encoder
        self.cq = ContextQuery(d_model)
        self.cq_proj = nn.Conv1d(4 * d_model, d_model, 1)
        self.stacked = stacked
        self.start = nn.Conv1d(2 * d_model, 1, 1, bias=False)
        self.end = nn.Conv1d(2 * d_model, 1, 1, bias=False)

    def forward(self, cwids, ccids, qwids, qcids):
        mask_C = (torch.ones_like(cwids) * 0 != cwids).float()
        mask_Q = (torch.ones_like(qwids) * 0 != qwids).float()
        C = self.encoder(self.embed(cwids, ccids), mask_C)
        Q = self.encoder(self.embed(qwids, qcids), mask_Q)
        x = self.cq_proj(self.cq(C, Q, mask_C, mask_Q))
        e1 = self.stacked(x, mask_C)
        e2 = self.stacked(e1, mask_C)
        e3 = self.stacked(e2, mask_C)
        p1 = mask_logits(self.start(torch.cat((e1, e2), dim=1)).squeeze(1), mask_C)
        p2 = mask_logits(self.end(torch.cat((e1, e3), dim=1)).squeeze(1), mask_C)
        return p1, p2
