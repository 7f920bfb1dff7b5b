# case: b5-34-postmask
# modelled-on: evangronberg/chatgpt-from-scratch https://github.com/evangronberg/chatgpt-from-scratch/commit/f91fe848cc49b2103e0d8a72110c55482c5d4a76
# label: buggy
# class: real-bug
# pattern: a course assignment's causal multi-head attention with raw parameter matrices (w_qkv of shape (3D, D), w_o): q, k, v are sliced from one product and split into heads, and the causal mask is applied by wrapping the scaled scores in torch.tril before the softmax over the last axis
# why: torch.tril sets the future scores to 0, not to -inf: exp(0) = 1, so every query still gives the future positions a weight comparable to the past ones (the assignment asks for a causal mask); commit f91fe84 ("PA4 masking update") replaces the zeros left by the tril with -inf before the softmax
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
        # the attention equation, with the causal mask
        y_prime = torch.matmul(
            torch.softmax(
                torch.tril(torch.matmul(q, k.mT) / math.sqrt(d_h)),  # expect: ATT006
                dim=-1,
            ),
            v,
        )  # (B, H, S, D/H)
        y_prime = y_prime.transpose(1, 2).reshape(b, s, -1)  # (B, S, D)
        return torch.matmul(y_prime, self.w_o.T)
