# case: t14g-06-clean
# modelled-on: YutaroOgawa/pytorch_advanced https://github.com/YutaroOgawa/pytorch_advanced/commit/4010b5366d4abddec87383d2d4b95ec49b28587d
# label: correct
# class: clean
# pattern: the sentiment-classification Transformer of a Japanese PyTorch textbook: for clarity the attention is single-head, with d_k set to the full d_model (300, the fastText width); keys are (batch, tokens, d_model) and the scores are torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.d_k); the padding mask (a training loop in another module builds it as inputs != pad_id, True = real token) is unsqueezed to (batch, 1, tokens) and applied with masked_fill(mask == 0, -1e9) before a softmax over dim=-1
# why: correct: with one head the key width is d_model, so sqrt(d_model) is the paper's sqrt(d_k) here; on 3-D keys transpose(1, 2) swaps tokens and features, it is the key transpose; the mask is True on real tokens and mask == 0 selects the padding, filled with a finite -1e9 along the key axis (the unsqueeze broadcasts it over the queries); what a naive linter could misread: ATT004 (a scale by the model width), ATT005 (transpose(1, 2) rather than (-2, -1)), ATT002 (masked_fill of mask == 0 with a mask from another file), ATT007 (-1e9)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/YutaroOgawa/pytorch_advanced https://github.com/YutaroOgawa/pytorch_advanced/commit/4010b5366d4abddec87383d2d4b95ec49b28587d 7_nlp_sentiment_transformer/utils/transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    """A Transformer is multi-head; this one is single-head for readability."""

    def __init__(self, d_model=300):
        super().__init__()
        self.q_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)
        self.d_k = d_model  # the size used to temper the scores

    def forward(self, q, k, v, mask):
        k = self.k_linear(k)
        q = self.q_linear(q)
        v = self.v_linear(v)
        # summed products grow with the width, so divide by root(d_k)
        weights = torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.d_k)
        mask = mask.unsqueeze(1)
        weights = weights.masked_fill(mask == 0, -1e9)
        normalized = F.softmax(weights, dim=-1)
        output = torch.matmul(normalized, v)
        return self.out(output), normalized


class TransformerBlock(nn.Module):
    def __init__(self, d_model, dropout=0.1):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attn = Attention(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 1024), nn.ReLU(), nn.Dropout(dropout), nn.Linear(1024, d_model))
        self.dropout_1 = nn.Dropout(dropout)
        self.dropout_2 = nn.Dropout(dropout)

    def forward(self, x, mask):
        x_norm = self.norm_1(x)
        output, weights = self.attn(x_norm, x_norm, x_norm, mask)
        x2 = x + self.dropout_1(output)
        return x2 + self.dropout_2(self.ff(self.norm_2(x2))), weights
