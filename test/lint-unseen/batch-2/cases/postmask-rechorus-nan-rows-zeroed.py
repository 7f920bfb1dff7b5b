# case: postmask-rechorus-nan-rows-zeroed
# modelled-on: THUwangcy/ReChorus https://github.com/THUwangcy/ReChorus/issues/8
# label: correct
# class: fixed
# pattern: recommender self-attention over an item history: a 0/1 keep mask filled with -inf before the softmax (after subtracting the global max), then a masked_fill on the softmax output that zeroes the NaN rows a fully masked query produces
# why: the maintainer's answer to issue #8 (-inf gives NaN when every key of a row is masked): keep -inf, which guarantees exact zeros for masked keys whatever the other scores are, and turn the NaN rows of fully masked queries into zeros after the softmax; rows with a valid key are untouched, so the fill after the softmax is not a mask that should have gone before it
# looks-like: ATT006, ATT007
# source: https://github.com/THUwangcy/ReChorus https://github.com/THUwangcy/ReChorus/commit/3499e224537d509ed981d53c7978c5c5452b5014 src/utils/layers.py
import numpy as np
import torch
import torch.nn as nn


class HistoryAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, kq_same: bool = False, bias: bool = True):
        super().__init__()
        self.d_model = d_model
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.kq_same = kq_same
        self.v_linear = nn.Linear(d_model, d_model, bias=bias)
        self.k_linear = nn.Linear(d_model, d_model, bias=bias)
        if not kq_same:
            self.q_linear = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, q, k, v, mask=None):
        # q, k, v: (bs, seq, d_model); mask: (bs, 1, q_len, k_len) or (1, 1, q_len, k_len), 1 = keep
        bs = q.size(0)
        k = self.k_linear(k).view(bs, -1, self.h, self.d_k).transpose(1, 2)  # (bs, h, k_len, d_k)
        proj_q = self.k_linear if self.kq_same else self.q_linear
        q = proj_q(q).view(bs, -1, self.h, self.d_k).transpose(1, 2)  # (bs, h, q_len, d_k)
        v = self.v_linear(v).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        out = self.weighted_values(q, k, v, self.d_k, mask)  # (bs, h, q_len, d_k)
        return out.transpose(1, 2).reshape(bs, -1, self.d_model)

    @staticmethod
    def weighted_values(q, k, v, d_k, mask=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / d_k ** 0.5  # (bs, h, q_len, k_len)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -np.inf)
        scores = (scores - scores.max()).softmax(dim=-1)
        scores = scores.masked_fill(torch.isnan(scores), 0)
        return torch.matmul(scores, v)


def history_mask(history: torch.Tensor) -> torch.Tensor:
    """history: (bs, seq) item ids, 0 = padding on the left. Causal and padding keep mask (bs, 1, seq, seq)."""
    seq_len = history.size(1)
    valid = (history > 0).long()  # (bs, seq)
    causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.long, device=history.device))
    return causal[None, None, :, :] * valid[:, None, None, :]
