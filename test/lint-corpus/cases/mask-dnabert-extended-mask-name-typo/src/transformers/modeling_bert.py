# case: mask-dnabert-extended-mask-name-typo
# modelled-on: jerryji1993/DNABERT https://github.com/jerryji1993/DNABERT/issues/102
# label: buggy
# pattern: the vendored transformers copy builds the additive mask in ModuleUtilsMixin.get_extended_attention_mask (modeling_utils.py): it casts and converts a misspelt copy (exteneded_attention_mask = (1.0 - extended_attention_mask) * -10000.0) and returns the unconverted name, so BertModel passes the tokenizer's 1/0 keep mask, broadcast to (B, 1, 1, S), down to the self-attention, which adds it to the raw scores
# why: the comment says the returned tensor is 0.0 where attended and -10000.0 where masked, but what is added is 1 at the real tokens and 0 at the padding: a 0/1 mask added into the scores (ATT006), so padding is not masked at all (and real tokens get +1); issue #102 points at the returned variable's name
import math

import torch
import torch.nn as nn

from .modeling_utils import PreTrainedModel


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


class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.output = nn.Linear(config.hidden_size, config.hidden_size)
        self.norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states, attention_mask=None):
        attention_output = self.attention(hidden_states, attention_mask)
        return self.norm(hidden_states + self.output(attention_output))


class BertEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.layer = nn.ModuleList([BertLayer(config) for _ in range(config.num_hidden_layers)])

    def forward(self, hidden_states, attention_mask=None):
        for layer_module in self.layer:
            hidden_states = layer_module(hidden_states, attention_mask)
        return hidden_states


class BertModel(PreTrainedModel):
    base_model_prefix = "bert"

    def __init__(self, config):
        super().__init__(config)
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=0)
        self.encoder = BertEncoder(config)

    def forward(self, input_ids, attention_mask=None):
        input_shape = input_ids.size()
        device = input_ids.device
        if attention_mask is None:
            attention_mask = torch.ones(input_shape, device=device)

        # We can provide a self-attention mask of dimensions [batch_size, from_seq_length, to_seq_length]
        # ourselves in which case we just need to make it broadcastable to all heads.
        extended_attention_mask = self.get_extended_attention_mask(attention_mask, input_shape)

        embedding_output = self.embeddings(input_ids)
        return self.encoder(embedding_output, attention_mask=extended_attention_mask)
