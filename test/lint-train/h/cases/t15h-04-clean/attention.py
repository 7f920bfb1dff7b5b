# case: t15h-04-clean
# modelled-on: ChrisDoh100/Simple-Transformer-Implementation https://github.com/ChrisDoh100/Simple-Transformer-Implementation/commit/dc9e333bd03cde272c8893ea28002e1c994dd309
# label: correct
# class: clean
# pattern: a pre-norm translation transformer; the preprocessing module builds keep masks: the source one as (src != pad) of shape (B, 1, 1, S), the target one as (trg != pad).view(B, 1, 1, -1) ANDed with torch.triu(ones(B, 1, T, T) == 1).transpose(2, 3); the attention module divides q @ k^T by sqrt of the head width and applies the mask with masked_fill_(mask == torch.tensor(False), -inf) in place before an nn.Softmax(dim=-1) built in __init__; the decoder passes the target mask to its self-attention and the source mask to cross-attention
# why: correct: triu(...) == 1 transposed over the last two axes is the lower triangle with the diagonal, a keep mask for causal attention, and the padding part keeps real keys; the fill goes where the mask is False; the diagonal is always kept so no row of a real query is fully masked (padded query rows are, and their outputs are ignored by the loss); triu in a causal mask and a comparison with a tensor(False) look like an inverted mask
# looks-like: ATT002, ATT007
# source: https://github.com/ChrisDoh100/Simple-Transformer-Implementation https://github.com/ChrisDoh100/Simple-Transformer-Implementation/commit/dc9e333bd03cde272c8893ea28002e1c994dd309 MultiHeadAttn.py
import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dmodel = config["model_dimension"]
        self.heads = config["heads"]
        self.headdim = int(self.dmodel / self.heads)
        self.q_proj = nn.Linear(self.dmodel, self.dmodel)
        self.k_proj = nn.Linear(self.dmodel, self.dmodel)
        self.v_proj = nn.Linear(self.dmodel, self.dmodel)
        self.o_proj = nn.Linear(self.dmodel, self.dmodel)
        self.softmax = nn.Softmax(dim=-1)

    def scaled_dot_product(self, q, k, v, mask=None):
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / math.sqrt(self.headdim)
        if mask is not None:
            scores.masked_fill_(mask == torch.tensor(False), float("-inf"))
        return torch.matmul(self.softmax(scores), v)

    def forward(self, q, k, v, mask):
        b = q.shape[0]
        q = self.q_proj(q).view(b, -1, self.heads, self.headdim).transpose(1, 2)
        k = self.k_proj(k).view(k.shape[0], -1, self.heads, self.headdim).transpose(1, 2)
        v = self.v_proj(v).view(v.shape[0], -1, self.heads, self.headdim).transpose(1, 2)
        out = self.scaled_dot_product(q, k, v, mask=mask).transpose(1, 2)
        return self.o_proj(out.reshape(b, -1, self.dmodel))


class DecoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        d = config["model_dimension"]
        self.self_attn = MultiHeadAttention(config)
        self.cross_attn = MultiHeadAttention(config)
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(3)])
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))

    def forward(self, trg, memory, trg_mask, src_mask):
        h = self.norms[0](trg)
        trg = trg + self.self_attn(h, h, h, trg_mask)
        h = self.norms[1](trg)
        trg = trg + self.cross_attn(h, memory, memory, src_mask)
        return trg + self.ff(self.norms[2](trg))
