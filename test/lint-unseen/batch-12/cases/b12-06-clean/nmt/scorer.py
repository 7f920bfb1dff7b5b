import torch
import torch.nn as nn


class AdditiveScorer(nn.Module):
    """e_j = v^T tanh(W s_prev + U h_j), one score per source step."""

    def __init__(self, hidden: int, attn_hidden: int):
        super().__init__()
        self.w = nn.Linear(hidden, attn_hidden, bias=False)
        self.u = nn.Linear(2 * hidden, attn_hidden, bias=False)
        self.v = nn.Parameter(torch.full((attn_hidden,), 0.05))
        self._keys = None

    def precompute(self, annotations):
        self._keys = self.u(annotations)  # (batch, src_len, attn_hidden)

    def score(self, prev_state):
        energy = self.w(prev_state).unsqueeze(1) + self._keys
        return torch.einsum("btk,k->bt", torch.tanh(energy), self.v)  # (batch, src_len)
