# case: b3-59-mask
# modelled-on: hskimim/pytorch-transformer-implementation https://github.com/hskimim/pytorch-transformer-implementation/commit/8b9fa626dfda0f45312821748dfc44181499b6c6
# label: correct
# class: fixed
# pattern: a BERT package (bert/embedding.py, bert/model.py) on a shared attention module: the embedding returns the padding mask as a bool keep mask (True at real tokens); the attention fills bool masks with -inf where they are 0 and adds float masks, raising on any other dtype
# why: the state after 026d3dd and 8b9fa62: the bool keep mask reaches the bool branch and -inf replaces the padding keys' scores, so they get no weight; every sequence starts with a real token, so no row is all -inf
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/hskimim/pytorch-transformer-implementation https://github.com/hskimim/pytorch-transformer-implementation/commit/8b9fa626dfda0f45312821748dfc44181499b6c6 transformer/attention/sdp.py
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
            mask = mask.to(score.device)
            if mask.dtype == torch.bool:
                score = score.masked_fill(mask == 0, float("-inf"))
            elif mask.dtype == torch.float:
                score += mask
            else:
                raise TypeError(f"attention mask must be bool or float, got {mask.dtype}")
        weights = torch.softmax(score, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(q.shape[0], q.shape[2], self.d_model)
        return self.fc(out)
