# case: b21-05-clean
# modelled-on: He23333000/Proto-KT-Prototypical-Meta-Learning-for-Few-Shot-Knowledge-Tracing https://github.com/He23333000/Proto-KT-Prototypical-Meta-Learning-for-Few-Shot-Knowledge-Tracing/commit/2291528a48889d9789a2ddbf521080d504b63820
# label: correct
# class: clean
# pattern: a self-attentive knowledge-tracing model (SAKT) with prototype meta-learning: the multi-head attention stores self.scale = math.sqrt(head_dim) and divides the scores by it, adds an optional relative-position bias, adds an additive causal matrix torch.triu(ones * -inf, diagonal=1), then applies the padding mask from the collate code (another module: right padding, 1 for real interactions, 0 for padding) with masked_fill(mask == 0, -inf) after unsqueeze(1).unsqueeze(2); a single-head prediction attention from the next question to the encoded history divides by sqrt(embed_dim) and masks with mask.unsqueeze(1); a prototype attention in a third module scores a context vector against a learned (k, d) prototype table with context @ prototypes.T / sqrt(d)
# why: correct: the multi-head scale is sqrt of the per-head width; the prediction attention has one head over the whole embedding, so sqrt(embed_dim) is its d_k; the mask is a keep mask (1 = real) so == 0 selects the padding to fill; histories are right-padded, so every query row keeps at least its first interaction and no row is all -inf; .T on the 2-D prototype table is the ordinary key transpose
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/He23333000/Proto-KT-Prototypical-Meta-Learning-for-Few-Shot-Knowledge-Tracing https://github.com/He23333000/Proto-KT-Prototypical-Meta-Learning-for-Few-Shot-Knowledge-Tracing/commit/2291528a48889d9789a2ddbf521080d504b63820 proto_kt/models/sakt.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class InteractionAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.q_linear = nn.Linear(embed_dim, embed_dim)
        self.k_linear = nn.Linear(embed_dim, embed_dim)
        self.v_linear = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)
        # 1/sqrt(d_k): divide by the square root of the per-head width
        self.scale = math.sqrt(self.head_dim)

    def forward(self, query, key, value, mask=None, causal=True, position_bias=None):
        b, t, _ = query.size()
        Q = self.q_linear(query).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        K = self.k_linear(key).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        V = self.v_linear(value).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)

        scores = torch.matmul(Q, K.transpose(-2, -1)) / self.scale
        if position_bias is not None:
            scores = scores + position_bias.unsqueeze(0)
        if causal:
            future = torch.triu(torch.ones(t, t, device=query.device) * float("-inf"), diagonal=1)
            scores = scores + future
        if mask is not None:
            mask = mask.unsqueeze(1).unsqueeze(2)  # (b, 1, 1, t)
            scores = scores.masked_fill(mask == 0, float("-inf"))

        weights = self.dropout(F.softmax(scores, dim=-1))
        ctx = torch.matmul(weights, V).transpose(1, 2).contiguous().view(b, t, self.embed_dim)
        return self.out_proj(ctx), weights


class NextQuestionHead(nn.Module):
    """One-head attention from the next question to the encoded history."""

    def __init__(self, embed_dim, n_questions):
        super().__init__()
        self.embed_dim = embed_dim
        self.question_embed = nn.Embedding(n_questions + 1, embed_dim, padding_idx=0)
        self.pred_query = nn.Linear(embed_dim, embed_dim)
        self.pred_key = nn.Linear(embed_dim, embed_dim)
        self.pred_value = nn.Linear(embed_dim, embed_dim)
        self.pred_fc = nn.Linear(embed_dim, 1)

    def forward(self, encoded, next_question_ids, mask=None):
        query = self.pred_query(self.question_embed(next_question_ids))
        key = self.pred_key(encoded)
        value = self.pred_value(encoded)
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.embed_dim)
        if mask is not None:
            scores = scores.masked_fill(mask.unsqueeze(1) == 0, float("-inf"))
        weights = F.softmax(scores, dim=-1)
        return torch.sigmoid(self.pred_fc(torch.matmul(weights, value)).squeeze(-1))
