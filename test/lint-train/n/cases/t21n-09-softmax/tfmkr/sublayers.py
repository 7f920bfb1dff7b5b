# case: t21n-09-softmax
# modelled-on: KimJaehee0725/Transformer-Implementation https://github.com/KimJaehee0725/Transformer-Implementation/commit/53f177a2f617f9d185e86d7375637876d4f2ec6a
# label: buggy
# class: real-bug
# pattern: a from-scratch transformer assembled from sublayers configured by an args object (another module): a QKV projection sublayer maps (batch, seq_len, embed_dim) to model_dim; the self-attention sublayer turns the keys with K.transpose(1, 2) into (batch, model_dim, seq_len), computes torch.matmul(Q, K_transposed) / sqrt(model_dim) (one head over the whole model width; the shape comments say (batch_size, seq_len, seq_len)) and normalises with F.softmax(scores, dim=1) before multiplying by V; the encoder block in a third module wires projection, attention, residual and feed-forward
# why: buggy: for (batch, query, key) scores dim=1 is the query axis, so each key's column sums to one and the rows that weight V are not distributions over the keys; the author's next commit ("model complete") changes exactly this to dim=2 in every attention sublayer (the fixed case). The padding mask of the original (which the fix did not touch) is left out of both cases
# source: https://github.com/KimJaehee0725/Transformer-Implementation https://github.com/KimJaehee0725/Transformer-Implementation/commit/53f177a2f617f9d185e86d7375637876d4f2ec6a model_utils.py
from math import sqrt

import torch
import torch.nn as nn
import torch.nn.functional as F


class QKVProjectionSublayer(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.QueryProjection = nn.Linear(args.embed_dim, args.model_dim)
        self.KeyProjection = nn.Linear(args.embed_dim, args.model_dim)
        self.ValueProjection = nn.Linear(args.embed_dim, args.model_dim)

    def forward(self, input_seq):  # input_seq : (batch, seq_len, embed_dim)
        return self.QueryProjection(input_seq), self.KeyProjection(input_seq), self.ValueProjection(input_seq)


class SelfAttentionSubLayer(nn.Module):  # Q, K, V : (batch_size, seq_len, model_dim)
    def __init__(self, args):
        super().__init__()
        self.ffnn_layer = nn.Linear(args.model_dim, args.embed_dim)

    def forward(self, Q, K, V):
        model_dim = Q.size()[2]
        K_transposed = K.transpose(1, 2)  # K_transposed : (batch_size, model_dim, seq_len)
        attention_score_matrix = torch.matmul(Q, K_transposed)
        attention_score_matrix = attention_score_matrix / sqrt(model_dim)  # (batch_size, seq_len, seq_len)
        attention_matrix = F.softmax(attention_score_matrix, dim = 1)  # expect: ATT001
        attention_result = torch.matmul(attention_matrix, V)
        return self.ffnn_layer(attention_result)
