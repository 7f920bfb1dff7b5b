# case: t21n-10-softmax
# modelled-on: KimJaehee0725/Transformer-Implementation https://github.com/KimJaehee0725/Transformer-Implementation/commit/6f4ae575254c83447c50b0fc2b8f4ffc7de55539
# label: correct
# class: fixed
# pattern: the same sublayers after the author's "model complete" commit: K.transpose(1, 2) turns the keys to (batch, model_dim, seq_len), the scores torch.matmul(Q, K_transposed) / sqrt(model_dim) are (batch, seq_len, seq_len) per the shape comments, and F.softmax(scores, dim = 2) normalises them before the product with V; the QKV projection sublayer and the encoder block (another module) are unchanged
# why: correct: dim=2 is the key axis of (batch, query, key) scores, so every query's weights over the keys sum to one; the single head spans the whole model width, so sqrt(model_dim) is its d_k; K.transpose(1, 2) swaps the sequence and feature axes of 3-D keys, the usual K^T
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/KimJaehee0725/Transformer-Implementation https://github.com/KimJaehee0725/Transformer-Implementation/commit/6f4ae575254c83447c50b0fc2b8f4ffc7de55539 model_utils.py
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
        attention_matrix = F.softmax(attention_score_matrix, dim = 2)
        attention_result = torch.matmul(attention_matrix, V)
        return self.ffnn_layer(attention_result)
