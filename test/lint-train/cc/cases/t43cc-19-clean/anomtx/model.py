# case: t43cc-19-clean
# modelled-on: Hamzawillcode/anomaly-transformer-satellite-telemetry https://github.com/Hamzawillcode/anomaly-transformer-satellite-telemetry/commit/a1157abe4673ced68f21b95c8773394b1011958b
# label: correct
# class: clean
# pattern: an Anomaly Transformer (association discrepancy) for satellite telemetry windows of fixed length: each attention layer returns the series association `softmax(Q K^T / sqrt(d_k), dim=-1)` and a prior association, a Gaussian of the squared distance |j - i|^2 (a registered buffer) with an input-dependent sigma clamped to [0.5, 10], rescaled so each row sums to 1; the evaluation module (another file) averages both over heads, computes the symmetric KL per time point and scores windows with `softmax(-ass_dis, dim=-1)` times the reconstruction error
# why: correct: the series association is ordinary scaled dot-product attention over the keys (last axis) of fixed-length windows, with no mask needed; the prior is normalised row by row over the keys by design (a distribution per query, like the softmax), not a renormalisation of masked weights; in the anomaly score the softmax over the last axis of the (B, N) discrepancy is over the time points of a window, as the paper's criterion states
# looks-like: ATT001, ATT006
# source: https://github.com/Hamzawillcode/anomaly-transformer-satellite-telemetry https://github.com/Hamzawillcode/anomaly-transformer-satellite-telemetry/commit/a1157abe4673ced68f21b95c8773394b1011958b src/model/anomaly_transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AssociationAttention(nn.Module):
    def __init__(self, d_model, heads, seq_len):
        super().__init__()
        self.d_model, self.heads, self.seq_len = d_model, heads, seq_len
        self.d_k = d_model // heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        # sigma depends on the input (one scale per time point and head)
        self.sigma_proj = nn.Linear(d_model, heads)
        idx = torch.arange(seq_len, dtype=torch.float32)
        self.register_buffer('distances', (idx.unsqueeze(1) - idx.unsqueeze(0)) ** 2)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b = x.shape[0]
        Q = self.query(x).view(b, self.seq_len, self.heads, self.d_k).transpose(1, 2)
        K = self.key(x).view(b, self.seq_len, self.heads, self.d_k).transpose(1, 2)
        V = self.value(x).view(b, self.seq_len, self.heads, self.d_k).transpose(1, 2)

        sigma = torch.clamp(self.sigma_proj(x), min=0.5, max=10.0).permute(0, 2, 1).unsqueeze(-1)

        # series association
        scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.d_k)
        series = F.softmax(scores, dim=-1)

        # prior association: Gaussian kernel of the distance, each row rescaled to sum to 1
        dist = self.distances.unsqueeze(0).unsqueeze(0)
        gaussian = (1.0 / (math.sqrt(2 * math.pi) * sigma)) * torch.exp(-dist / (2.0 * sigma ** 2))
        prior = gaussian / (gaussian.sum(dim=-1, keepdim=True) + 1e-8)

        context = torch.matmul(series, V).transpose(1, 2).contiguous().view(b, self.seq_len, self.d_model)
        return self.out_proj(context), series, prior


class AnomalyTransformer(nn.Module):
    def __init__(self, num_features, seq_len, d_model=512, heads=8, layers=3, dropout=0.1):
        super().__init__()
        self.embedding = nn.Linear(num_features, d_model)
        self.attn = nn.ModuleList([AssociationAttention(d_model, heads, seq_len) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(layers)])
        self.dropout = nn.Dropout(dropout)
        self.reconstruction = nn.Linear(d_model, num_features)

    def forward(self, x):
        x = self.embedding(x)
        series_list, prior_list = [], []
        for attn, norm in zip(self.attn, self.norms):
            out, series, prior = attn(x)
            x = norm(x + self.dropout(out))
            series_list.append(series)
            prior_list.append(prior)
        return self.reconstruction(x), series_list, prior_list
