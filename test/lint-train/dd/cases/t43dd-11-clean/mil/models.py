# case: t43dd-11-clean
# modelled-on: sanskarkosare/camelyon-attention-mil https://github.com/sanskarkosare/camelyon-attention-mil/commit/1bf3fe78dbcb4c942b11430e830dcfb8e6d3fcbe
# label: correct
# class: clean
# pattern: gated attention multiple-instance learning (Ilse et al. 2018) for whole-slide classification: one bag of N patch features [N, F] at a time (no batch axis; the training loop in another module iterates over the bags of a list-collated batch), scores `w(tanh(V h) * sigmoid(U h))` of shape [N, 1], `softmax(a, dim=0)`, bag vector `(a * h).sum(dim=0, keepdim=True)`; the per-patch weights are returned for heat maps
# why: correct: with one bag per call axis 0 is the instance axis, the one the pooling sums over, so dim=0 normalises the weights over the patches of the bag; the last axis has length 1 and is not the softmax axis; there is no batch axis to confuse with the instances
# looks-like: ATT001
# source: https://github.com/sanskarkosare/camelyon-attention-mil https://github.com/sanskarkosare/camelyon-attention-mil/commit/1bf3fe78dbcb4c942b11430e830dcfb8e6d3fcbe train_mil.py
import torch
import torch.nn as nn


class GatedMIL(nn.Module):
    def __init__(self, feature_dim=2048, hidden_dim=512, attention_dim=256, n_classes=1):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(feature_dim, hidden_dim), nn.ReLU(), nn.Dropout(0.25))
        self.gate_tanh = nn.Linear(hidden_dim, attention_dim)
        self.gate_sigm = nn.Linear(hidden_dim, attention_dim)
        self.score = nn.Linear(attention_dim, 1)
        self.head = nn.Linear(hidden_dim, n_classes)

    def forward(self, patches):
        # patches: [N, feature_dim], the instances of ONE slide
        h = self.embed(patches)
        gate = torch.tanh(self.gate_tanh(h)) * torch.sigmoid(self.gate_sigm(h))
        a = self.score(gate)
        a = torch.softmax(a, dim=0)
        bag = (a * h).sum(dim=0, keepdim=True)
        return self.head(bag).squeeze(), a.squeeze()


class MeanMIL(nn.Module):
    def __init__(self, feature_dim=2048, hidden_dim=512, n_classes=1):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(feature_dim, hidden_dim), nn.ReLU(), nn.Dropout(0.25))
        self.head = nn.Linear(hidden_dim, n_classes)

    def forward(self, patches):
        return self.head(self.embed(patches).mean(dim=0, keepdim=True)).squeeze()
