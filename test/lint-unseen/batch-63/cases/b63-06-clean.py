# case: b63-06-clean
# modelled-on: sakuranew/PointerNet-pytorch https://github.com/sakuranew/PointerNet-pytorch/commit/4d6aa5168e98bdf7a634a91ccd3fe43ddbbef494
# label: correct
# class: clean
# pattern: a boundary-style pointer network: a GRU encoder over (N, L, H) inputs, a GRUCell decoder that runs a fixed number of steps and feeds back the pointed-to input, and an additive scorer `w(tanh(Wq q + Wk k))` over the L positions whose optional (N, L) mask is 1 on real positions; the scorer casts it to bool and fills `~mask` with -inf before `torch.softmax(score, -1)`
# why: correct: the mask is a keep mask (1 = real position, as the decoder's docstring and the caller's padding have it), so `masked_fill(~mask, -inf)` hides exactly the padding; the scores are (N, L) after the squeeze, so the softmax over the last axis normalises over the positions; additive attention has no 1/sqrt(d) factor; every sequence has at least one real position
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/sakuranew/PointerNet-pytorch https://github.com/sakuranew/PointerNet-pytorch/commit/4d6aa5168e98bdf7a634a91ccd3fe43ddbbef494 PointerNet.py
import torch
import torch.nn as nn


class SeqEncoder(nn.Module):
    def __init__(self, d_in=128, d_hid=128, layers=1, bidirectional=False):
        super().__init__()
        width = d_hid // 2 if bidirectional else d_hid
        self.rnn = nn.GRU(d_in, width, num_layers=layers, batch_first=True, bidirectional=bidirectional)

    def forward(self, x):
        """x: (N, L, H_in) -> outputs (N, L, H), final state (N, H)."""
        out, last = self.rnn(x)
        return out, last.view(out.shape[0], -1)


class AdditiveScorer(nn.Module):
    def __init__(self, d_q=128, d_hid=128):
        super().__init__()
        self.wq = nn.Linear(d_q, d_hid, bias=False)
        self.wk = nn.Linear(d_hid, d_hid, bias=False)
        self.v = nn.Linear(d_hid, 1, bias=False)

    def forward(self, q, k, keep=None):
        """q: (N, H); k: (N, L, H); keep: (N, L) with 1 on real positions."""
        q = self.wq(q).unsqueeze(1).expand_as(k)
        score = self.v(torch.tanh(q + self.wk(k))).squeeze(-1)  # (N, L)
        if keep is not None:
            keep = keep.bool()
            score = score.masked_fill(~keep, -float("inf"))
        return torch.softmax(score, -1)


class BoundaryDecoder(nn.Module):
    def __init__(self, d_in=128, d_hid=128, steps=2):
        super().__init__()
        self.steps = steps
        self.cell = nn.GRUCell(d_in, d_hid)
        self.scorer = AdditiveScorer(d_hid, d_hid)

    def forward(self, inputs, encoded, state, keep=None):
        """Returns (N, steps, L): one distribution over positions per step (start, end)."""
        n, d_in = inputs.shape[0], inputs.shape[2]
        step_in = torch.ones(n, d_in, device=inputs.device)
        dists = []
        for _ in range(self.steps):
            state = self.cell(step_in, state)
            dist = self.scorer(state, encoded, keep)
            idx = dist.argmax(1).view(-1, 1, 1).expand(-1, -1, d_in)
            step_in = inputs.gather(1, idx).squeeze(1)
            dists.append(dist)
        return torch.stack(dists, 1)


class PointerNet(nn.Module):
    def __init__(self, d_in=128, d_hid=128):
        super().__init__()
        self.encoder = SeqEncoder(d_in, d_hid)
        self.bridge = nn.Linear(d_hid, d_hid)
        self.decoder = BoundaryDecoder(d_in, d_hid)

    def forward(self, x, keep=None):
        encoded, last = self.encoder(x)
        return self.decoder(x, encoded, self.bridge(last), keep)
