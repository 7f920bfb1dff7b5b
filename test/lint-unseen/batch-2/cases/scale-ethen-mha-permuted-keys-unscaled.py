# case: scale-ethen-mha-permuted-keys-unscaled
# modelled-on: ethen8181/machine-learning https://github.com/ethen8181/machine-learning/issues/13
# label: buggy
# class: real-bug
# pattern: tutorial multi-head attention (seq2seq notebook) whose keys are permuted straight into (batch, heads, head_dim, key_len) so the product is a plain matmul without a visible transpose; 0/1 keep mask filled with -1e10 before the softmax
# why: the energies are never divided by sqrt(head_dim), unlike the scaled dot-product attention the notebook describes; reported in issue #13 and fixed by the author ("I've checked in the fix") with / math.sqrt(self.head_dim)
# source: https://github.com/ethen8181/machine-learning https://github.com/ethen8181/machine-learning/commit/39d5d02a79840e8c694bedb427c575d0bfe7ed5f deep_learning/seq2seq/torch_transformer.ipynb
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, hid_dim: int, n_heads: int):
        super().__init__()
        assert hid_dim % n_heads == 0
        self.hid_dim = hid_dim
        self.n_heads = n_heads
        self.head_dim = hid_dim // n_heads
        self.key_weight = nn.Linear(hid_dim, hid_dim)
        self.query_weight = nn.Linear(hid_dim, hid_dim)
        self.value_weight = nn.Linear(hid_dim, hid_dim)
        self.out_weight = nn.Linear(hid_dim, hid_dim)

    def forward(self, query, key, value, mask=None):
        # query: (batch, query_len, hid_dim); key, value: (batch, key_len, hid_dim)
        # mask: (batch, 1, 1 or query_len, key_len), 1 = keep
        batch_size, query_len, key_len = query.shape[0], query.shape[1], key.shape[1]
        key_proj = self.key_weight(key)
        query_proj = self.query_weight(query)
        value_proj = self.value_weight(value)

        query_proj = query_proj.view(batch_size, query_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        key_proj = key_proj.view(batch_size, key_len, self.n_heads, self.head_dim).permute(0, 2, 3, 1)

        # energy: (batch, n_heads, query_len, key_len)
        energy = torch.matmul(query_proj, key_proj)
        if mask is not None:
            energy = energy.masked_fill(mask == 0, -1e10)
        attention = torch.softmax(energy, dim=-1)  # expect: ATT003

        value_proj = value_proj.view(batch_size, key_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        output = torch.matmul(attention, value_proj)  # (batch, n_heads, query_len, head_dim)
        output = output.permute(0, 2, 1, 3).contiguous().view(batch_size, query_len, self.hid_dim)
        return self.out_weight(output), attention


def make_src_mask(src: torch.Tensor, pad_idx: int) -> torch.Tensor:
    # src: (batch, src_len) -> (batch, 1, 1, src_len), True = real token
    return (src != pad_idx).unsqueeze(1).unsqueeze(2)
