# case: t8b-08-scale
# modelled-on: LeePleased/StackPropagation-SLU https://github.com/LeePleased/StackPropagation-SLU/pull/9
# label: buggy
# class: real-bug
# pattern: a spoken-language-understanding model (intent detection and slot filling): a query-key-value attention module projects query, key and value with three Linear layers and multiplies the weights with the values; a self-attention wrapper in another module feeds it the padded word features and cuts each sentence back to its length
# why: buggy: the division by sqrt(hidden_dim) is applied to the softmax output instead of the logits, so the logits are unscaled and every weight row sums to 1/sqrt(hidden_dim); the merged PR #9 ("make the code implementation consistent with the QKVAttention formula") moves the scale in front of the softmax, softmax(Q K^T / sqrt(d)) V
# source: https://github.com/LeePleased/StackPropagation-SLU https://github.com/LeePleased/StackPropagation-SLU/pull/9 utils/module.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QKVAttention(nn.Module):
    """Query-key-value attention; self-attention when query, key and value are the same tensor."""

    def __init__(self, query_dim, key_dim, value_dim, hidden_dim, output_dim, dropout_rate):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.query_layer = nn.Linear(query_dim, hidden_dim)
        self.key_layer = nn.Linear(key_dim, hidden_dim)
        self.value_layer = nn.Linear(value_dim, output_dim)
        self.dropout_layer = nn.Dropout(p=dropout_rate)

    def forward(self, input_query, input_key, input_value):
        """
        input_query: (batch, n, d_q); input_key: (batch, m, d_k); input_value: (batch, m, d_v).
        Returns (batch, n, output_dim).
        """
        linear_query = self.query_layer(input_query)
        linear_key = self.key_layer(input_key)
        linear_value = self.value_layer(input_value)

        scores = torch.matmul(linear_query, linear_key.transpose(-2, -1))
        score_tensor = F.softmax(scores, dim=-1) / math.sqrt(self.hidden_dim)  # expect: ATT004
        forced_tensor = torch.matmul(score_tensor, linear_value)
        return self.dropout_layer(forced_tensor)
