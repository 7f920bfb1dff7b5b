# case: b7-20-softmax
# modelled-on: suleman-dawood/GPT-from-scratch https://github.com/suleman-dawood/GPT-from-scratch/commit/f0ec94024ccaca2bccba0939fe611531ec53fc40
# label: buggy
# class: real-bug
# pattern: a lecture-style character GPT split into modules: Head projects (B, T, C) tokens to head_size keys, queries and values, scales Query @ Key^T by Key.shape[-1] ** -0.5, applies a tril buffer with masked_fill(mask == 0, -inf) and takes the softmax with dim=1; sizes (context_size, num_embeddings) come from a constants module with star imports, and MultiHead in another module concatenates the heads
# why: buggy: the scores are (B, T_query, T_key), so dim=1 normalises each key's column over the queries instead of each query's row over the keys; with the causal mask the first column holds the only finite entry of row 0, and the output is not a weighted average of the values the query may see. No fix was found; the label rests on the attention the module's own comments describe (how much each token relates to every other token, averaging the values)
# source: https://github.com/suleman-dawood/GPT-from-scratch https://github.com/suleman-dawood/GPT-from-scratch/commit/f0ec94024ccaca2bccba0939fe611531ec53fc40 head.py
from constants import *
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(num_embeddings, head_size, bias=False)
        self.query = nn.Linear(num_embeddings, head_size, bias=False)
        self.value = nn.Linear(num_embeddings, head_size, bias=False)
        # lower triangular buffer: a token may not see the tokens after it
        self.register_buffer("tril", torch.tril(torch.ones(context_size, context_size)))
        self.dropout = nn.Dropout(DROPOUT)

    def forward(self, x):
        B, T, C = x.shape
        Key = self.key(x)  # (B, T, head_size)
        Query = self.query(x)
        Value = self.value(x)
        scale_factor = Key.shape[-1] ** -0.5
        attention_weights = Query @ Key.transpose(-2, -1) * scale_factor  # (B, T, T): how much each token relates to every other token
        mask = self.tril[:T, :T]
        attention_weights = attention_weights.masked_fill(mask == 0, float("-inf"))
        attention_weights = nn.functional.softmax(attention_weights, dim=1)  # expect: ATT001
        attention_weights = self.dropout(attention_weights)
        return attention_weights @ Value  # (B, T, head_size)
