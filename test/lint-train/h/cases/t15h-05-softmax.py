# case: t15h-05-softmax
# modelled-on: ok1zjf/VASNet https://github.com/ok1zjf/VASNet/commit/c3787531486f74789dc5e92758edf51e24f56e6d
# label: buggy
# class: real-bug
# pattern: a video-summarisation model with a single soft self-attention over the frames of one video (frames on the first axis, batch size 1): K, Q and V are bias-free projections, Q is multiplied by a hand-picked 0.06 before logits = Q @ K^T (n x n), optional -inf entries hide each frame from itself or frames outside an aperture, the softmax runs over the last axis (keys), and the output is computed as (V^T @ weights)^T before a linear layer and a frame-score regressor
# why: buggy: with weights[i, j] normalised over j (each query i's distribution over keys), (V^T @ weights)^T gives y[j] = sum_i weights[i, j] * V[i]: the contraction runs over the queries, so each output is a sum weighted by a column that does not sum to 1 instead of the row the softmax normalised; the paper's y_t = sum_i alpha_{t,i} V_i needs weights @ V (or the softmax over dim 0 for this contraction); reported on the issue tracker, unfixed; the 0.06 query scale is the authors' documented choice and not a defect here
# source: https://github.com/ok1zjf/VASNet https://github.com/ok1zjf/VASNet/commit/c3787531486f74789dc5e92758edf51e24f56e6d vasnet_model.py
import torch
import torch.nn as nn


class FrameSelfAttention(nn.Module):
    def __init__(self, aperture=-1, ignore_itself=False, input_size=1024, output_size=1024):
        super().__init__()
        self.aperture = aperture
        self.ignore_itself = ignore_itself
        self.K = nn.Linear(input_size, output_size, bias=False)
        self.Q = nn.Linear(input_size, output_size, bias=False)
        self.V = nn.Linear(input_size, output_size, bias=False)
        self.out = nn.Linear(output_size, input_size, bias=False)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        n = x.shape[0]  # number of frames
        K = self.K(x)  # (n, H)
        Q = self.Q(x)
        V = self.V(x)

        Q *= 0.06
        logits = torch.matmul(Q, K.transpose(1, 0))  # (n, n)

        if self.ignore_itself:
            logits[torch.eye(n).bool()] = -float("Inf")
        if self.aperture > 0:
            ones = torch.ones(n, n)
            far = torch.tril(ones, -self.aperture) + torch.triu(ones, self.aperture)
            logits[far == 1] = -float("Inf")

        att = nn.functional.softmax(logits, dim=-1)
        weights = self.drop(att)
        y = torch.matmul(V.transpose(1, 0), weights).transpose(1, 0)  # expect: ATT001
        return self.out(y), att


class FrameScorer(nn.Module):
    def __init__(self, m=1024):
        super().__init__()
        self.att = FrameSelfAttention(input_size=m, output_size=m)
        self.ka = nn.Linear(m, 1024)
        self.kd = nn.Linear(1024, 1)
        self.norm_y = nn.LayerNorm(m)
        self.norm_ka = nn.LayerNorm(1024)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        x = x.view(-1, x.shape[2])  # frames on the first axis (batch size 1)
        y, att = self.att(x)
        y = self.norm_y(self.drop(y + x))
        y = self.norm_ka(self.drop(torch.relu(self.ka(y))))
        return torch.sigmoid(self.kd(y)).view(1, -1), att
