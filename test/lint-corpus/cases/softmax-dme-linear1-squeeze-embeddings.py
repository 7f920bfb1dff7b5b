# case: softmax-dme-linear1-squeeze-embeddings
# modelled-on: facebookresearch/DME https://github.com/facebookresearch/DME/issues/6
# label: correct
# pattern: dynamic meta-embeddings, time-first (seq, batch, n_emb, dim); the gate is nn.Linear(2, 1) followed by squeeze(3), or an LSTM + Linear(4, 1) viewed to (seq, batch, n_emb); the softmax is dim=2
# why: the weights are meant to be a distribution over the n_emb embedding sets at each token (the authors confirmed it in #6); after squeeze(3) axis 2 is the n_emb axis, not the removed length-1 axis
# looks-like: ATT001
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProjSumEmbedder(nn.Module):
    def __init__(self, embeds, proj_dim: int, attnnet: str = "no_dep_softmax"):
        super().__init__()
        self.attnnet = attnnet
        self.n_emb = len(embeds)
        self.names = sorted(name for name, _ in embeds)
        self.embedders = nn.ModuleDict({name: nn.Embedding(50000, dim) for name, dim in embeds})
        self.projectors = nn.ModuleDict({name: nn.Linear(dim, proj_dim) for name, dim in embeds})
        if attnnet.startswith("dep_"):
            self.attn_0 = nn.LSTM(proj_dim, 2, bidirectional=True)
            self.attn_1 = nn.Linear(2 * 2, 1)
        else:
            self.attn_0 = nn.Linear(proj_dim, 2)
            self.attn_1 = nn.Linear(2, 1)
        self.m_attn = None

    def forward(self, words):
        # words: (seq, batch)
        projected = [self.projectors[n](self.embedders[n](words)) for n in self.names]  # each (seq, batch, dim)
        # (seq, batch, n_emb, dim)
        stacked = torch.cat([p.unsqueeze(2) for p in projected], 2)
        s_len, b_size, _, emb_dim = stacked.size()
        if self.attnnet.startswith("dep_"):
            flat = stacked.view(s_len, b_size * self.n_emb, -1)
            self.m_attn = self.attn_1(self.attn_0(flat)[0]).view(s_len, b_size, self.n_emb)
        else:
            # (seq, batch, n_emb, 1) -> (seq, batch, n_emb)
            self.m_attn = self.attn_1(self.attn_0(stacked)).squeeze(3)
        if self.attnnet.endswith("_gating"):
            self.m_attn = torch.sigmoid(self.m_attn)
        else:
            self.m_attn = F.softmax(self.m_attn, dim=2)
        weighted = stacked * self.m_attn.view(s_len, b_size, self.n_emb, 1).expand_as(stacked)
        return weighted.sum(2)  # (seq, batch, dim)
