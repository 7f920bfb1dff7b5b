# case: postmask-dnabert-keep-mask-added-typo
# modelled-on: jerryji1993/DNABERT https://github.com/jerryji1993/DNABERT/issues/102
# label: buggy
# class: real-bug
# pattern: a two-file workspace: BertModel gets its additive mask from get_extended_attention_mask of a mixin in modeling_utils.py, where a misspelt variable (exteneded_...) receives the (1.0 - m) * -10000.0 conversion and the raw 0/1 keep mask is returned; BertSelfAttention adds the mask to the scaled scores
# why: the mask added to the scores is the 1/0 keep mask itself (+1 on real tokens, +0 on padding), so padding is never masked and the real tokens get a constant bias; the function's own comment says it should return 0.0 for kept and -10000.0 for masked positions
# source: https://github.com/jerryji1993/DNABERT https://github.com/jerryji1993/DNABERT/commit/b6da04ec9a7d4e53efe5b33a6ce1a21c0e7ac413 src/transformers/modeling_utils.py
import math

import torch
from torch import nn

from modeling_utils import ModuleUtilsMixin


class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(*new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask=None):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))

        # Take the dot product between "query" and "key" to get the raw attention scores.
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            # Apply the attention mask (precomputed for all layers in BertModel forward() function)
            attention_scores = attention_scores + attention_mask  # expect: ATT006

        attention_probs = nn.Softmax(dim=-1)(attention_scores)
        attention_probs = self.dropout(attention_probs)

        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        return context_layer.view(*new_context_layer_shape)


class BertModel(nn.Module, ModuleUtilsMixin):
    def __init__(self, config, embeddings):
        super().__init__()
        self.config = config
        self.embeddings = embeddings
        self.layers = nn.ModuleList([BertSelfAttention(config) for _ in range(config.num_hidden_layers)])

    def forward(self, input_ids, attention_mask=None):
        input_shape = input_ids.size()
        device = input_ids.device
        if attention_mask is None:
            attention_mask = torch.ones(input_shape, device=device)

        extended_attention_mask: torch.Tensor = self.get_extended_attention_mask(attention_mask, input_shape, device)

        hidden_states = self.embeddings(input_ids)
        for layer in self.layers:
            hidden_states = hidden_states + layer(hidden_states, attention_mask=extended_attention_mask)
        return hidden_states
