# case: b5-35-postmask
# modelled-on: evangronberg/chatgpt-from-scratch https://github.com/evangronberg/chatgpt-from-scratch/commit/f91fe848cc49b2103e0d8a72110c55482c5d4a76
# label: correct
# class: fixed
# pattern: after the fix: the course assignment's causal multi-head attention computes the scaled scores, wraps them in torch.tril, and then replaces the zeros the tril left (the future positions) with -inf by boolean indexing before the softmax over the last axis
# why: correct: every future score becomes -inf and gets zero weight after the softmax; the past scores are kept (a past score that is exactly 0.0 would be hidden too, which has probability zero for float scores)
# looks-like: ATT002, ATT006
# source: https://github.com/evangronberg/chatgpt-from-scratch https://github.com/evangronberg/chatgpt-from-scratch/commit/f91fe848cc49b2103e0d8a72110c55482c5d4a76 module-04/module4_programming/mha.py
import math

import torch


class CourseMHA(torch.nn.Module):
    """Causal multi-head attention; n_heads divides d_model."""

    def __init__(self, d_model: int, n_heads: int) -> None:
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.w_qkv = torch.nn.Parameter(torch.randn((3 * d_model, d_model)))
        self.w_o = torch.nn.Parameter(torch.randn((d_model, d_model)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.to(self.w_qkv.dtype)
        t = torch.matmul(x, self.w_qkv.T)  # (B, S, 3D)
        d_h = self.d_model // self.n_heads
        b, s = x.shape[0], x.shape[1]
        # (B, S, D) -> (B, H, S, D/H)
        q = t[:, :, : self.d_model].reshape(b, s, self.n_heads, d_h).transpose(1, 2)
        k = t[:, :, self.d_model : 2 * self.d_model].reshape(b, s, self.n_heads, d_h).transpose(1, 2)
        v = t[:, :, 2 * self.d_model :].reshape(b, s, self.n_heads, d_h).transpose(1, 2)
        # the term the attention equation puts through the softmax
        softmax_term = torch.tril(torch.matmul(q, k.mT) / math.sqrt(d_h))
        # the zeros the tril left are the future: make them -inf so the softmax gives them 0
        softmax_term[softmax_term == 0] = -float("inf")
        y_prime = torch.matmul(torch.softmax(softmax_term, dim=-1), v)  # (B, H, S, D/H)
        y_prime = y_prime.transpose(1, 2).reshape(b, s, -1)  # (B, S, D)
        return torch.matmul(y_prime, self.w_o.T)
