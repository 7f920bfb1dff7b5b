# case: t16i-10-clean
# modelled-on: bj1123/seq2seq https://github.com/bj1123/seq2seq/commit/1d4a55f7e75df6f8b5003d057502546a1a5bd7e9
# label: correct
# class: clean
# pattern: a Transformer-XL-style language model with a segment memory: the model (other module) builds a boolean hide mask as (padding mask from lengths with reverse=True) + ones.triu(1 + memory_len) > 0, with the padding columns of the memory left visible; the attention concatenates memory and current keys, computes scores in a (batch, query, key, head) layout with einsum, fills the hide mask (unsqueezed on the head axis) with -6e4 and softmaxes over dim 2, the key axis of that layout
# why: correct: reverse=True makes the length mask True on padding, and triu(1 + memory_len) is True on the future keys once the memory offset is taken into account, so True means hide, which is what masked_fill needs; -6e4 is finite in float16; dim 2 is the key axis of the bqkn layout; the scale is the head size
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/bj1123/seq2seq https://github.com/bj1123/seq2seq/commit/1d4a55f7e75df6f8b5003d057502546a1a5bd7e9 model/attention.py
import torch
from torch import nn


class MultiheadAtt(nn.Module):
    def __init__(self, hidden_dim, n_head, head_dim, dropatt_rate=0.0):
        super().__init__()
        self.n_head = n_head
        self.head_dim = head_dim
        self.kv_net = nn.Linear(hidden_dim, 2 * n_head * head_dim, bias=False)
        self.q_net = nn.Linear(hidden_dim, n_head * head_dim, bias=False)
        self.o_net = nn.Linear(n_head * head_dim, hidden_dim, bias=False)
        self.dropatt = nn.Dropout(dropatt_rate)
        self.scale = 1 / (head_dim ** 0.5)

    @staticmethod
    def mask(score, hide):
        return score.masked_fill(hide.bool().unsqueeze(-1), -6e4)

    def forward(self, q, mem, hide):
        bs, qs, _ = q.size()
        if mem is None:
            mem = q.new_zeros(bs, 0, q.size(-1))
        c = torch.cat([mem, q], 1)
        key, value = self.kv_net(c).chunk(2, -1)
        ks = key.size(1)
        k = key.view(bs, ks, self.n_head, self.head_dim)
        v = value.view(bs, ks, self.n_head, self.head_dim)
        query = self.q_net(q).view(bs, qs, self.n_head, self.head_dim)
        score = torch.einsum("bqnd,bknd->bqkn", query, k) * self.scale
        score = self.mask(score, hide)
        prob = self.dropatt(torch.softmax(score, 2))
        out = torch.einsum("bqkn,bknd->bqnd", prob, v)
        return self.o_net(out.contiguous().view(bs, qs, -1))
