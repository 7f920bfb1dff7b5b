# case: t43dd-03-clean
# modelled-on: GarfieldHuang/llm-from-scratch https://github.com/GarfieldHuang/llm-from-scratch/commit/36c2ca030fa27ce38600adfc695449b8da9c0d92
# label: correct
# class: clean
# pattern: a teaching LLM written without autograd: causal multi-head self-attention with its own forward and backward; the forward masks `triu(ones(T, T, bool), 1)` with -inf and writes the softmax out by hand (`exp(s - max) / sum(dim=-1)`); the backward computes `dattn = dout @ v^T`, `dv = attn^T @ dout`, the softmax backward `attn * (dattn - (dattn * attn).sum(-1))`, then `dq = dscores @ k` and `dk = dscores^T @ q`, both times the scale
# why: correct: the hand-written softmax normalises each query row over the keys (dim=-1); in the backward `attn.transpose(-1, -2) @ dout` is the value gradient (the weights transposed on purpose), `dscores.transpose(-1, -2) @ q` the key gradient, and the row sum is the softmax Jacobian-vector product, not a mask or a renormalisation; the scale 1/sqrt(head_dim) multiplies the scores in the forward and the score gradient in the backward (chain rule)
# looks-like: ATT001, ATT003, ATT004, ATT005, ATT006
# source: https://github.com/GarfieldHuang/llm-from-scratch https://github.com/GarfieldHuang/llm-from-scratch/commit/36c2ca030fa27ce38600adfc695449b8da9c0d92 scratch/attention.py
import math

import torch


class Dense:
    def __init__(self, n_in, n_out):
        self.w = torch.randn(n_out, n_in) / math.sqrt(n_in)
        self.gw = torch.zeros_like(self.w)
        self.x = None

    def forward(self, x):
        self.x = x
        return x @ self.w.T

    def backward(self, g):
        self.gw += g.reshape(-1, g.shape[-1]).T @ self.x.reshape(-1, self.x.shape[-1])
        return g @ self.w


class ManualCausalAttention:
    def __init__(self, dim, n_heads):
        assert dim % n_heads == 0
        self.dim = dim
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.wq = Dense(dim, dim)
        self.wk = Dense(dim, dim)
        self.wv = Dense(dim, dim)
        self.wo = Dense(dim, dim)
        self.saved = {}

    def split(self, t, B, T):
        return t.reshape(B, T, self.n_heads, self.head_dim).transpose(1, 2)

    def merge(self, t, B, T):
        return t.transpose(1, 2).reshape(B, T, self.dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.split(self.wq.forward(x), B, T)
        k = self.split(self.wk.forward(x), B, T)
        v = self.split(self.wv.forward(x), B, T)

        scores = (q @ k.transpose(-1, -2)) * self.scale
        future = torch.triu(torch.ones(T, T, device=x.device, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))

        top = scores.max(dim=-1, keepdim=True).values
        e = torch.exp(scores - top)
        attn = e / e.sum(dim=-1, keepdim=True)

        out = attn @ v
        self.saved = dict(q=q, k=k, v=v, attn=attn, B=B, T=T)
        return self.wo.forward(self.merge(out, B, T))

    def backward(self, dy):
        s = self.saved
        B, T = s["B"], s["T"]
        q, k, v, attn = s["q"], s["k"], s["v"], s["attn"]
        dout = self.split(self.wo.backward(dy), B, T)

        dattn = dout @ v.transpose(-1, -2)
        dv = attn.transpose(-1, -2) @ dout

        row = (dattn * attn).sum(dim=-1, keepdim=True)
        dscores = attn * (dattn - row)
        dscores = dscores * self.scale

        dq = dscores @ k
        dk = dscores.transpose(-1, -2) @ q

        return (
            self.wq.backward(self.merge(dq, B, T))
            + self.wk.backward(self.merge(dk, B, T))
            + self.wv.backward(self.merge(dv, B, T))
        )
