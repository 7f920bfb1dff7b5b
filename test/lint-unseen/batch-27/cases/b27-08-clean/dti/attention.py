# case: b27-08-clean
# modelled-on: cyj121/DTI-Transformer-pytorch https://github.com/cyj121/DTI-Transformer-pytorch/commit/0aad7246c08d6790d51ba772174b801d47d5323b
# label: correct
# class: clean
# pattern: a drug-target interaction classifier: a drug encoder (embedding, self-attention layers, conv and max-pool) produces one query vector per drug that cross-attends over protein features in a second encoder; the multi-head module projects with full-width Linears, splits heads with view(batch, -1, h, d_k).transpose(-3, -2), and calls a scaled dot-product module from another file that computes key.size(-1) ** -0.5, multiplies matmul(query, key.transpose(-2, -1)) by it and takes softmax(dim=-1); heads are merged with transpose(-3, -2).contiguous().view(batch, -1, h * d_k)
# why: correct: transpose(-3, -2) on (batch, L, h, d_k) gives (batch, h, L, d_k), so key.size(-1) inside the helper is the per-head width d_k and the scale is 1/sqrt(d_k); key.transpose(-2, -1) swaps the sequence and feature axes of 4-D keys; the softmax is over the key axis; the single drug query (length 1) attends over the protein sequence
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/cyj121/DTI-Transformer-pytorch https://github.com/cyj121/DTI-Transformer-pytorch/commit/0aad7246c08d6790d51ba772174b801d47d5323b model/model_struct.py
from torch import nn

from dti.blocks import ResidualNorm, ScaledDotProduct


class MultiHeadAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        assert d_model % h == 0
        self.h = h
        self.d_model = d_model
        self.d_k = d_model // h
        self.fc_Q = nn.Linear(d_model, d_model)
        self.fc_K = nn.Linear(d_model, d_model)
        self.fc_V = nn.Linear(d_model, d_model)
        self.attention = ScaledDotProduct(dropout)
        self.fc = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value):
        batch_size = query.size(0)
        Q = self.fc_Q(query).view(batch_size, -1, self.h, self.d_k).transpose(-3, -2)
        K = self.fc_K(key).view(batch_size, -1, self.h, self.d_k).transpose(-3, -2)
        V = self.fc_V(value).view(batch_size, -1, self.h, self.d_k).transpose(-3, -2)
        context = self.attention(Q, K, V)
        context = context.transpose(-3, -2).contiguous().view(batch_size, -1, self.h * self.d_k)
        return self.dropout(self.fc(context))


class CrossEncoderLayer(nn.Module):
    def __init__(self, h, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.mha = MultiHeadAttention(h, d_model, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model), nn.Dropout(dropout))
        self.res = ResidualNorm(d_model)

    def forward(self, query, key, value):
        out = self.res(value, self.mha(query, key, value))
        return self.res(out, self.ff(out))


class InteractionHead(nn.Module):
    def __init__(self, h, d_model, d_ff, n_classes=2):
        super().__init__()
        self.cross = CrossEncoderLayer(h, d_model, d_ff)
        self.out = nn.Linear(d_model, n_classes)

    def forward(self, drug_vec, protein_feats):
        query = drug_vec.unsqueeze(1)  # (batch, 1, d_model)
        fused = self.cross(query, protein_feats, protein_feats)
        return self.out(fused.mean(dim=1))
