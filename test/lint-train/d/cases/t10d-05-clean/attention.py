# case: t10d-05-clean
# modelled-on: eduardoleao052/Transformer-from-scratch https://github.com/eduardoleao052/Transformer-from-scratch/commit/9b1abb299e5a1a4583f8036943efb339fab2f7d8
# label: correct
# class: clean
# pattern: a GPT trained without autograd: a causal multi-head self-attention layer with explicit forward and backward passes; the forward splits (B, T, D) into heads of width H = D // heads, divides q @ k.transpose(-2, -1) by H**0.5 with torch.div, fills the future with -inf from a 4-D tril buffer and calls a hand-written softmax class from another module with dim=-1; the backward multiplies by transposed values, attention weights and scores (dout @ v.transpose(-2, -1), att.transpose(-2, -1) @ dout, datt.transpose(-2, -1) @ q) to get the gradients
# why: correct: the scale is the per-head width and is applied once before the softmax (the backward divides the score gradient by the same factor, which is the chain rule, not a second scale); the transposes in the backward pass are gradient products, not key transposes in a score; the softmax class normalises over the dim it is given, the key axis; what a naive linter could misread: ATT004 (a division by H**0.5 in the backward too), ATT005 (products with transposed values and weights), ATT001 (a softmax through a custom class)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/eduardoleao052/Transformer-from-scratch https://github.com/eduardoleao052/Transformer-from-scratch/commit/9b1abb299e5a1a4583f8036943efb339fab2f7d8 src/layers.py
import torch

from ops import Linear, ManualSoftmax


class CausalSelfAttention:
    def __init__(self, d, n_heads, n_timesteps):
        assert d % n_heads == 0
        self.H = d // n_heads
        self.Wk, self.Wq, self.Wv, self.proj = Linear(d, d), Linear(d, d), Linear(d, d), Linear(d, d)
        self.mask = torch.tril(torch.ones(n_timesteps, n_timesteps).view(1, 1, n_timesteps, n_timesteps))
        self.softmax = ManualSoftmax()

    def forward(self, x):
        B, T, D = x.shape
        H = self.H
        nh = D // H
        k = self.Wk(x).reshape(B, T, nh, H).transpose(1, 2)  # (B, nh, T, H)
        q = self.Wq(x).reshape(B, T, nh, H).transpose(1, 2)
        v = self.Wv(x).reshape(B, T, nh, H).transpose(1, 2)
        att = q @ k.transpose(-2, -1)  # (B, nh, T, T)
        att = torch.div(att, H**0.5)
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = self.softmax(att, dim=-1)
        out = (att @ v).transpose(1, 2).contiguous().view(B, T, D)
        self.cache = (att, k, v, q)
        return self.proj(out)

    def backward(self, dout):
        B, T, D = dout.shape
        H = self.H
        att, k, v, q = self.cache
        dout = self.proj.backward(dout)
        dout = dout.reshape(B, T, D // H, H).transpose(1, 2)  # (B, nh, T, H)
        datt = dout @ v.transpose(-2, -1)  # (B, nh, T, T)
        dv = att.transpose(-2, -1) @ dout  # (B, nh, T, H)
        datt = self.softmax.backward(datt)
        datt = datt.masked_fill(self.mask[:, :, :T, :T] == 0, 0.0)
        datt = datt / H**0.5
        dq = datt @ k
        dk = datt.transpose(-2, -1) @ q
        return dq, dk, dv
