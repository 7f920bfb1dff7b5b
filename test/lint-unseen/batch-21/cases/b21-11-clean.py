# case: b21-11-clean
# modelled-on: 00LukeSkyworker00/slot-attention-pytorch https://github.com/00LukeSkyworker00/slot-attention-pytorch/commit/3ab3a6b9da2825e418f1e164993a3f50e8a89c8d
# label: correct
# class: clean
# pattern: a slot-attention encoder rewritten "to the paper version" with the keys as the left operand: dots = einsum('bid,bjd->bij', k, q) * dim ** -0.5 gives (batch, inputs, slots), softmax(dim=-1) normalises over the slots, eps is added, the weights are renormalised over the inputs with attn / attn.sum(dim=-2, keepdim=True), and updates = einsum('bij,bid->bjd', attn, v) pool the inputs per slot before a GRU update; slots are sampled from a learned mean and spread
# why: correct: slot attention makes the slots compete for each input (softmax over the slot axis, as in Locatello et al.) and then takes a weighted mean of the inputs per slot, which is what the dim=-2 renormalisation and the einsum over i do; with keys on the left the slot axis is the last one, so softmax(dim=-1) is that competition; the scale is the shared width (one head)
# looks-like: ATT001, ATT005, ATT006
# source: https://github.com/00LukeSkyworker00/slot-attention-pytorch https://github.com/00LukeSkyworker00/slot-attention-pytorch/commit/3ab3a6b9da2825e418f1e164993a3f50e8a89c8d model.py
import torch
import torch.nn.functional as F
from torch import nn


class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden_dim=128):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_sigma = nn.Parameter(torch.rand(1, 1, dim))
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        hidden_dim = max(dim, hidden_dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, dim))
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs, num_slots=None):
        b, n, d = inputs.shape
        n_s = num_slots if num_slots is not None else self.num_slots
        slots = torch.normal(self.slots_mu.expand(b, n_s, -1), self.slots_sigma.expand(b, n_s, -1))

        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)

        for _ in range(self.iters):
            slots_prev = slots
            q = self.to_q(self.norm_slots(slots))

            dots = torch.einsum("bid,bjd->bij", k, q) * self.scale  # (b, inputs, slots)
            attn = dots.softmax(dim=-1) + self.eps
            attn = attn / attn.sum(dim=-2, keepdim=True)
            updates = torch.einsum("bij,bid->bjd", attn, v)  # (b, slots, d)

            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots


class SlotEncoder(nn.Module):
    def __init__(self, in_dim, dim=64, num_slots=7):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.slot_attention = SlotAttention(num_slots, dim)

    def forward(self, points):  # (b, n, in_dim) per-point features
        return self.slot_attention(self.embed(points))
