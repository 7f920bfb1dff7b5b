# case: fill-gaualpha-inf-1e4-half
# modelled-on: JunnYu/GAU-alpha-pytorch https://github.com/JunnYu/GAU-alpha-pytorch/commit/903534d3405f71d0e0177a7e7b81a9c22c90a1d2
# label: correct
# class: fixed
# pattern: gated attention unit (single-head, einsum 'bmd,bnd->bmn' on a shared qk projection with per-tensor scale/offset) whose mask fill is a module-level constant INF, applied as masked_fill(attention_mask == 0, -INF) before a normalisation helper chosen by name (softmax, squared_relu, softmax_plus)
# why: after the fix the fill is -1e4, representable in float16 and far below the scaled scores, so masked_fill works in half-precision training; keep masks (1 = token) are inverted with == 0, and the padded query rows are only scaled by their own length
# looks-like: ATT002, ATT007
# source: https://github.com/JunnYu/GAU-alpha-pytorch https://github.com/JunnYu/GAU-alpha-pytorch/commit/903534d3405f71d0e0177a7e7b81a9c22c90a1d2 src/gau_alpha/layer.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers.activations import get_activation

INF = 1e4


def attention_normalize(a, l, dim=-1, method="softmax"):
    """Attention normalisations: softmax, squared_relu, softmax_plus."""
    if method == "softmax":
        return torch.softmax(a, dim=dim)
    else:
        if method == "squared_relu":
            return torch.relu(a) ** 2 / l
        elif method == "softmax_plus":
            return torch.softmax(a * torch.log(l) / np.log(512), dim=dim)
    return a


class ScaleOffset(nn.Module):
    def __init__(self, hidden_size=768, scale=True, offset=True):
        super().__init__()
        self.scale = scale
        self.offset = offset
        if self.scale:
            self.weight = nn.Parameter(torch.ones(hidden_size))
        if self.offset:
            self.bias = nn.Parameter(torch.zeros(hidden_size))

    def forward(self, inputs):
        if self.scale:
            inputs = inputs * self.weight
        if self.offset:
            inputs = inputs + self.bias
        return inputs


class GatedAttentionUnit(nn.Module):
    def __init__(self, hidden_size=768, intermediate_size=1536, attention_key_size=128, activation="swish",
                 use_bias=False, normalization="softmax_plus", attention_scale=True, attention_dropout=0.1):
        super().__init__()
        self.activation = get_activation(activation)
        self.intermediate_size = intermediate_size
        self.attention_key_size = attention_key_size
        self.normalization = normalization
        self.attention_scale = attention_scale
        self.attention_dropout = attention_dropout
        self.i_dense = nn.Linear(hidden_size, 2 * intermediate_size + attention_key_size, bias=use_bias)
        self.o_dense = nn.Linear(intermediate_size, hidden_size, bias=use_bias)
        self.q_scaleoffset = ScaleOffset(attention_key_size, offset=use_bias)
        self.k_scaleoffset = ScaleOffset(attention_key_size, offset=use_bias)

    def forward(self, hidden_states, attention_mask=None):
        x = self.i_dense(hidden_states)
        u, v, qk = torch.split(self.activation(x),
                               [self.intermediate_size, self.intermediate_size, self.attention_key_size], dim=-1)
        q, k = self.q_scaleoffset(qk), self.k_scaleoffset(qk)

        a = torch.einsum("bmd,bnd->bmn", q, k)
        if self.attention_scale:
            a = a / self.attention_key_size ** 0.5

        if attention_mask is not None:
            if attention_mask.ndim == 2:
                attention_mask = attention_mask[:, None, :]
            a = a.masked_fill(attention_mask == 0, -INF)
            l = attention_mask.sum(-1, keepdim=True)
        else:
            l = x.shape[1]

        A = attention_normalize(a, l, dim=-1, method=self.normalization)
        A = F.dropout(A, p=self.attention_dropout, training=self.training)
        o = self.o_dense(u * torch.einsum("bmn,bnd->bmd", A, v))
        return (o,)
