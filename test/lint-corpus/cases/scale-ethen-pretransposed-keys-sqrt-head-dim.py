# case: scale-ethen-pretransposed-keys-sqrt-head-dim
# modelled-on: ethen8181/machine-learning https://github.com/ethen8181/machine-learning/issues/13
# label: correct
# pattern: a tutorial MultiHeadAttention whose key projection is permuted straight to (batch, heads, head_dim, key_len) with permute(0, 2, 3, 1), so the scores are a plain matmul of two permuted projections with no transpose call to hang a scale on; masked_fill(mask == 0, -1e10) then softmax
# why: the fixed form: the scores are divided by sqrt(head_dim) where they are formed, although the keys were never transposed by name (the permute already put head_dim before key_len)
# looks-like: ATT003, ATT005
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):

    def __init__(self, hid_dim, n_heads):
        super().__init__()
        self.hid_dim = hid_dim
        self.n_heads = n_heads
        self.head_dim = hid_dim // n_heads
        assert hid_dim % n_heads == 0
        self.key_weight = nn.Linear(hid_dim, hid_dim)
        self.query_weight = nn.Linear(hid_dim, hid_dim)
        self.value_weight = nn.Linear(hid_dim, hid_dim)
        self.linear_weight = nn.Linear(hid_dim, hid_dim)

    def forward(self, query, key, value, mask=None):
        batch_size = query.shape[0]
        query_len = query.shape[1]
        key_len = key.shape[1]

        key_proj = self.key_weight(key)
        query_proj = self.query_weight(query)
        value_proj = self.value_weight(value)

        # query: [batch, heads, query len, head dim]; key: [batch, heads, head dim, key len]
        query_proj = query_proj.view(batch_size, query_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        key_proj = key_proj.view(batch_size, key_len, self.n_heads, self.head_dim).permute(0, 2, 3, 1)

        # energy: [batch, heads, query len, key len]
        energy = torch.matmul(query_proj, key_proj) / math.sqrt(self.head_dim)
        if mask is not None:
            energy = energy.masked_fill(mask == 0, -1e10)
        attention = torch.softmax(energy, dim=-1)

        value_proj = value_proj.view(batch_size, key_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        output = torch.matmul(attention, value_proj)
        output = output.permute(0, 2, 1, 3).contiguous().view(batch_size, query_len, self.hid_dim)
        return self.linear_weight(output), attention
