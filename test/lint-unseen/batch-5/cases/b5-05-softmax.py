# case: b5-05-softmax
# modelled-on: davidgonmar/attention-is-all-you-need https://github.com/davidgonmar/attention-is-all-you-need/commit/a65b1533fbadc2bdadad6cdfb422113f8f9cbdbf
# label: buggy
# class: real-bug
# pattern: a paper-style multi-head attention whose heads are kept in one (batch, heads, len, d) tensor; a constructor flag turns on a causal tril mask built inside the score method, filled with -1e9 where 0, and the weights are the softmax of the scaled scores multiplied straight into V on the return line
# why: the scores are (batch, heads, len_q, len_k) and the softmax is taken over dim=1, the heads axis, so each score is normalised against the same position in the other heads instead of over the keys; commit a65b153 changes it to dim=-1
# source: https://github.com/davidgonmar/attention-is-all-you-need https://github.com/davidgonmar/attention-is-all-you-need/commit/a65b1533fbadc2bdadad6cdfb422113f8f9cbdbf model.py
import torch
from torch import Tensor, nn
from torch.nn import functional as F


class PaperMultiHead(nn.Module):
    def __init__(self, heads: int, width: int, d_k: int, d_v: int, causal: bool = False):
        super().__init__()
        assert width % heads == 0
        self.heads = heads
        self.d_k = d_k
        self.d_v = d_v
        self.causal = causal
        self.to_q = nn.Linear(width, heads * d_k, bias=False)
        self.to_k = nn.Linear(width, heads * d_k, bias=False)
        self.to_v = nn.Linear(width, heads * d_v, bias=False)
        self.to_out = nn.Linear(heads * d_v, width, bias=False)

    def forward(self, Q: Tensor, K: Tensor, V: Tensor) -> Tensor:
        b, len_q, len_k = Q.size(0), Q.size(1), K.size(1)
        # (b, len, width) -> (b, heads, len, d)
        Q = self.to_q(Q).view(b, len_q, self.heads, self.d_k).transpose(1, 2)
        K = self.to_k(K).view(b, len_k, self.heads, self.d_k).transpose(1, 2)
        V = self.to_v(V).view(b, len_k, self.heads, self.d_v).transpose(1, 2)
        out = self._attend(Q, K, V)  # (b, heads, len_q, d_v)
        out = out.transpose(1, 2).reshape(b, len_q, self.heads * self.d_v)
        return self.to_out(out)

    def _attend(self, Q: Tensor, K: Tensor, V: Tensor) -> Tensor:
        # (b, heads, len_q, d_k) @ (b, heads, d_k, len_k) -> (b, heads, len_q, len_k)
        x = (Q @ K.transpose(-2, -1)) / self.d_k**0.5
        if self.causal:
            # 1 on and below the diagonal, broadcast over batch and heads
            mask = torch.tril(torch.ones(x.size(-2), x.size(-1))).view(1, 1, x.size(-2), x.size(-1)).to(x.device)
            x = x.masked_fill(mask == 0, -1e9)
        return F.softmax(x, dim=1) @ V  # expect: ATT001
