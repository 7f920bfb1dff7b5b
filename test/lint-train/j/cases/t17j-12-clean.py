# case: t17j-12-clean
# modelled-on: 0aqz0/pytorch-attention-mechanism https://github.com/0aqz0/pytorch-attention-mechanism/commit/3625e7ad82ea5e7c01e1558e469883518b25ce31
# label: correct
# class: clean
# pattern: two small attention blocks: a "learn to pay attention" spatial block scores a (N, 1, H, W) map with a 1x1 conv, flattens it with c.view(N, 1, -1), softmaxes over dim=2 and reshapes back to (N, 1, H, W) before weighting and summing the local features; a temporal block scores every time step against the last hidden state with bmm(fc1(states), h_t.unsqueeze(2)).squeeze(2) into (batch, steps), softmaxes with dim=1 and pools with bmm(states.permute(0, 2, 1), weights.unsqueeze(2)), the weights as the right operand
# why: correct: the flattened map is (N, 1, H*W), so dim=2 normalises over all spatial positions of each image (the length-1 axis is left alone); in the temporal block the weights are normalised over the steps (dim=1 of (batch, steps)) and the product with the permuted states (batch, hidden, steps) @ (batch, steps, 1) contracts exactly that axis; additive and bilinear scores like these carry no 1/sqrt(d) scale in the papers
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/0aqz0/pytorch-attention-mechanism https://github.com/0aqz0/pytorch-attention-mechanism/commit/3625e7ad82ea5e7c01e1558e469883518b25ce31 attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatialAttention(nn.Module):
    def __init__(self, in_features, normalize_attn=True):
        super().__init__()
        self.normalize_attn = normalize_attn
        self.op = nn.Conv2d(in_features, 1, kernel_size=1, padding=0, bias=False)

    def forward(self, local, global_features):
        N, C, H, W = local.size()
        c = self.op(local + global_features)  # (N, 1, H, W)
        if self.normalize_attn:
            a = F.softmax(c.view(N, 1, -1), dim=2).view(N, 1, H, W)
        else:
            a = torch.sigmoid(c)
        g = torch.mul(a.expand_as(local), local)
        if self.normalize_attn:
            g = g.view(N, C, -1).sum(dim=2)
        else:
            g = F.adaptive_avg_pool2d(g, (1, 1)).view(N, C)
        return c.view(N, 1, H, W), g


class TemporalAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.fc1 = nn.Linear(hidden_size, hidden_size, bias=False)
        self.fc2 = nn.Linear(hidden_size * 2, hidden_size, bias=False)

    def forward(self, states):
        # states: (batch, steps, hidden)
        first = self.fc1(states)
        h_t = states[:, -1, :]
        score = torch.bmm(first, h_t.unsqueeze(2)).squeeze(2)  # (batch, steps)
        weights = F.softmax(score, dim=1)
        context = torch.bmm(states.permute(0, 2, 1), weights.unsqueeze(2)).squeeze(2)  # (batch, hidden)
        out = torch.tanh(self.fc2(torch.cat((context, h_t), dim=1)))
        return out, weights
