# case: b9-11-clean
# modelled-on: khaitanria/GPT-from-scratch https://github.com/khaitanria/GPT-from-scratch/commit/0435d5bcb8c78f8aa8695451ae01b25910f1365f
# label: correct
# class: clean
# pattern: a packaged GPT from scratch with one module per piece: a single causal attention head projects to head_size with three bias-free Linear layers, transposes the keys with torch.transpose(keys, 1, 2), divides by keys.shape[-1] ** 0.5, hides the future with masked_fill(tril(...) == 0, -inf) and softmaxes over the last axis; a multi-head module in another file builds model_dim // num_heads wide heads and concatenates them
# why: correct: the keys are 3-D (batch, context, head_size), so transpose(keys, 1, 2) swaps exactly the context and feature axes; attn_dim is read off the keys, i.e. the head width that the multi-head module passes (model_dim // num_heads); tril(...) == 0 is True strictly above the diagonal, so masked_fill hides the future and every row keeps its diagonal
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/khaitanria/GPT-from-scratch https://github.com/khaitanria/GPT-from-scratch/commit/0435d5bcb8c78f8aa8695451ae01b25910f1365f src/gptfs/model/single_head_attention.py
from __future__ import annotations

import torch
import torch.nn as nn


class SingleHeadAttention(nn.Module):
    def __init__(self, model_dim: int, head_size: int):
        super().__init__()
        self.key_layer = nn.Linear(model_dim, head_size, bias=False)
        self.query_layer = nn.Linear(model_dim, head_size, bias=False)
        self.value_layer = nn.Linear(model_dim, head_size, bias=False)

    def forward(self, embedded: torch.Tensor) -> torch.Tensor:
        """embedded: [batch, context_length, model_dim] -> [batch, context_length, head_size]"""
        # softmax((Q @ K^T) / sqrt(attention_dim)) @ V
        keys = self.key_layer(embedded)
        queries = self.query_layer(embedded)
        attn_dim = keys.shape[-1]  # head size
        attention_scores = (queries @ torch.transpose(keys, 1, 2)) / (attn_dim**0.5)

        cntxt_len = keys.shape[1]
        mask = torch.tril(torch.ones(cntxt_len, cntxt_len, device=embedded.device)) == 0
        attention_scores = attention_scores.masked_fill(mask, float("-inf"))

        weights = torch.nn.functional.softmax(attention_scores, dim=-1)
        return weights @ self.value_layer(embedded)
