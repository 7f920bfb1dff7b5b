# case: b61-01-clean
# modelled-on: jaykim1409/ptrnetwork https://github.com/jaykim1409/ptrnetwork/commit/acb35c70987d85c0505e0415144abaa816dc4aad
# label: correct
# class: clean
# pattern: a pointer network for the travelling salesman problem (a folder: `attend.py` scores one decoder state against every encoded city with additive attention, fills unavailable cities with -inf and takes a log-softmax over the cities; `net.py` keeps an availability mask, 1 = still selectable, that starts from the optional padding mask or all ones and is zeroed by `scatter` at each step's chosen (teacher-forced or greedy) city)
# why: correct: the availability mask is a keep mask and is filled where it is 0; additive attention carries no 1/sqrt(d) factor in its paper; the log-softmax runs over the cities (the last axis of (b, n)); the -inf fill never empties a row because the number of decoding steps is at most the number of real cities, so at every step at least one city is still available, and the log-probabilities feed an NLL loss whose targets are always available cities
# looks-like: ATT001, ATT002, ATT003, ATT006, ATT007
# source: https://github.com/jaykim1409/ptrnetwork https://github.com/jaykim1409/ptrnetwork/commit/acb35c70987d85c0505e0415144abaa816dc4aad PtrNetwork.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from pointer.attend import PointerScore


class TourDecoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.cell = nn.LSTM(2 * hidden, hidden, batch_first=True)
        self.score = PointerScore(hidden)

    def forward(self, step_in, carry, memory, available):
        out, carry = self.cell(step_in, carry)
        return self.score(memory, out[:, 0], available), carry


class TourNet(nn.Module):
    def __init__(self, coord_dim, hidden):
        super().__init__()
        self.encode = nn.LSTM(coord_dim, hidden, batch_first=True, bidirectional=True)
        self.decode = TourDecoder(hidden)

    def _pick(self, memory, index):
        return memory.gather(1, index[:, None, None].expand(-1, 1, memory.size(-1)))

    def forward(self, coords, steps, pad_mask=None, tour=None):
        b, n, _ = coords.shape
        memory, _ = self.encode(coords)
        step_in, carry = memory.mean(dim=1, keepdim=True), None
        if pad_mask is None:
            available = torch.ones(b, n, device=coords.device)
        else:
            available = pad_mask.clone()
        loss, picks = 0.0, []
        for t in range(steps):
            logp, carry = self.decode(step_in, carry, memory, available)
            if tour is not None:
                chosen = tour[:, t]
                loss = loss + F.nll_loss(logp, chosen)
            else:
                chosen = logp.argmax(dim=-1)
                picks.append(chosen)
            available = available.scatter(1, chosen[:, None], 0)
            step_in = self._pick(memory, chosen)
        if tour is not None:
            return loss / steps
        return torch.stack(picks, dim=1)
