# case: b3-58-mask
# modelled-on: hskimim/pytorch-transformer-implementation https://github.com/hskimim/pytorch-transformer-implementation/commit/1bd5b2f1f9ee38426b375079bb3dd76b3b95d099
# label: buggy
# class: real-bug
# pattern: a BERT package (bert/embedding.py, bert/model.py) on a shared attention module: the embedding builds the padding mask as a bool keep mask and converts it to an "additive sum form" (-inf at padding, 0 at tokens) with torch.empty_like(keep) and two indexed assignments; the attention adds the mask to the scaled scores before the softmax
# why: empty_like of a bool tensor is bool, so the "sum form" stores True where -inf was meant and False where 0 was meant; adding it to the scores adds +1 to the padding keys and 0 to the real ones, so padding is not removed and is even favoured; the repository rolled the embedding back to the bool keep mask (026d3dd, "roll-back the masking part of bert input embed") and made the attention fill bool masks with -inf where they are 0 and add only float masks (8b9fa62, "add if statement depends on attn mask's dtype")
# source: https://github.com/hskimim/pytorch-transformer-implementation https://github.com/hskimim/pytorch-transformer-implementation/commit/1bd5b2f1f9ee38426b375079bb3dd76b3b95d099 transformer/attention/sdp.py
import math

import torch
import torch.nn as nn


class MultiHeadProjection(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        assert d_model % n_head == 0
        self.n_head, self.head_dim = n_head, d_model // n_head
        self.Q, self.K, self.V = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)

    def split_heads(self, x):
        return x.view(x.shape[0], x.shape[1], self.n_head, self.head_dim).transpose(1, 2)  # (batch, heads, seq, head_dim)

    def forward(self, emb, enc_inputs=None):
        src = emb if enc_inputs is None else enc_inputs
        return self.split_heads(self.Q(emb)), self.split_heads(self.K(src)), self.split_heads(self.V(src))


class ScaledDotProductAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.d_model, self.head_dim = d_model, d_model // n_head
        self.fc = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask):
        score = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (batch, heads, seq, seq)
        if mask is not None:
            score += mask.to(score.device)  # expect: ATT006
        weights = torch.softmax(score, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(q.shape[0], q.shape[2], self.d_model)
        return self.fc(out)
