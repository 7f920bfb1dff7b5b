# case: b53-05-clean
# modelled-on: DiamondDeadMaw/LC-GPT https://github.com/DiamondDeadMaw/LC-GPT/commit/a17e63e622f47f4a4b6f6090da97a23d8bbb920d
# label: correct
# class: clean
# pattern: scaled cosine self-attention (SCSA) for a small GPT: queries, keys and values are L2-normalised per head, the cosine similarities are multiplied by a learnable temperature tau and the output by a learnable gain nu (a folder: the attention module and the causal-mask module it calls on the scores)
# why: correct: with unit-norm queries and keys the logits are cosines in [-1, 1], and the scale is the learnable tau by design of scaled cosine attention, not 1/sqrt(d); the causal module builds a float lower triangle and turns it into 0 on/below the diagonal and -inf above it, added to the scores before the softmax over the key axis; every row keeps its diagonal
# looks-like: ATT003, ATT004, ATT007
# source: https://github.com/DiamondDeadMaw/LC-GPT https://github.com/DiamondDeadMaw/LC-GPT/commit/a17e63e622f47f4a4b6f6090da97a23d8bbb920d layers/attention.py
import torch
from torch import nn

from future_block import FutureBlock


class CosineSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int, eps: float = 1e-8, tau0: float = 1.0, nu0: float = 1.0, learn_tau: bool = True, learn_nu: bool = True):
        super().__init__()
        assert width % heads == 0
        self.heads = heads
        self.per_head = width // heads
        self.eps = eps
        self.q = nn.Linear(width, width, bias=False)
        self.k = nn.Linear(width, width, bias=False)
        self.v = nn.Linear(width, width, bias=False)
        # temperature before the softmax, gain after the weighted sum
        if learn_tau:
            self.tau = nn.Parameter(torch.tensor([tau0]))
        else:
            self.register_buffer("tau", torch.tensor(tau0))
        if learn_nu:
            self.nu = nn.Parameter(torch.tensor([nu0]))
        else:
            self.register_buffer("nu", torch.tensor(nu0))
        self.no_future = FutureBlock()

    def _unit(self, t: torch.Tensor) -> torch.Tensor:
        return t / (t.norm(dim=-1, keepdim=True) + self.eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        shape = (b, t, self.heads, self.per_head)
        q = self._unit(self.q(x).view(shape).transpose(1, 2))
        k = self._unit(self.k(x).view(shape).transpose(1, 2))
        v = self._unit(self.v(x).view(shape).transpose(1, 2))

        cos = q @ k.transpose(-2, -1)
        logits = self.no_future(cos * self.tau)
        weights = torch.softmax(logits, dim=-1)

        y = (weights @ v).transpose(1, 2).reshape(b, t, c)
        return y * self.nu
