# case: t34aa-13-clean
# modelled-on: Skvayzer/slot-attention-atari https://github.com/Skvayzer/slot-attention-atari/commit/3c64677599d1747e3d6319a8de0546ea846d23bf
# label: correct
# class: clean
# pattern: Slot Attention and an Invariant Slot Attention variant (object-centric learning on Atari / CLEVR frames): scores `einsum("bid,bjd->bij", q, k) * dim ** -0.5` of slots against inputs, `dots.softmax(dim=1)` over the SLOTS, `+ eps` and a renormalisation over the inputs `attn / attn.sum(dim=-1, keepdim=True)`, then `einsum("bjd,bij->bid", v, attn)`; in the invariant variant every slot has its own keys and values (inputs plus an embedding of the grid relative to the slot's position, (b, slots, n, d)), scores `einsum("bid,bijd->bij", q, k)`, and each slot's new position is the attention-weighted mean of the absolute grid, written in place, `S_p[:, i, :] = attn[:, i] @ grid / attn[:, i].sum(-1, keepdim=True)`; the coordinate grid lives in another module
# why: correct: Slot Attention normalises over the slots on purpose (slots compete for each input) and then takes a weighted mean over the inputs, which the renormalisation over the last axis provides; the per-slot keys keep the slot axis i in both operands, so the softmax over i is still the competition and the einsum sums over the inputs j; the scale is 1/sqrt(dim), the slots' and keys' width; the position update divides by the weights' own sum, a weighted mean, and its in-place index assignment writes positions, not a fill of scores
# looks-like: ATT001, ATT004, ATT006, ATT007
# source: https://github.com/Skvayzer/slot-attention-atari https://github.com/Skvayzer/slot-attention-atari/commit/3c64677599d1747e3d6319a8de0546ea846d23bf modules/slot_attention.py
import numpy as np
import torch
from torch import nn
from torch.nn import init

from isa.grid import GridEmbed


def _slot_mlp(dim, hidden_dim):
    return nn.Sequential(nn.Linear(dim, hidden_dim), nn.ReLU(inplace=True), nn.Linear(hidden_dim, dim))


class SlotAttentionBase(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden_dim=128):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_logsigma = nn.Parameter(torch.zeros(1, 1, dim))
        init.xavier_uniform_(self.slots_logsigma)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.gru = nn.GRUCell(dim, dim)
        self.mlp = _slot_mlp(dim, max(dim, hidden_dim))
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def step(self, slots, k, v, b, d):
        slots_prev = slots
        q = self.to_q(self.norm_slots(slots))
        dots = torch.einsum("bid,bjd->bij", q, k) * self.scale
        attn = dots.softmax(dim=1) + self.eps
        attn = attn / attn.sum(dim=-1, keepdim=True)
        updates = torch.einsum("bjd,bij->bid", v, attn)
        slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
        return slots + self.mlp(self.norm_pre_ff(slots))

    def forward(self, inputs, n_s=None):
        b, n, d, device = *inputs.shape, inputs.device
        n_s = self.num_slots if n_s is None else n_s
        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = self.slots_logsigma.exp().expand(b, n_s, -1)
        slots = mu + sigma * torch.randn(mu.shape, device=device)
        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            slots = self.step(slots, k, v, b, d)
        return slots


class InvariantSlotAttention(nn.Module):
    """Slots with a position each; keys and values are seen relative to the slot's position."""

    def __init__(self, num_slots, dim, iters=3, eps=1e-8, delta=5, hidden_dim=128, resolution=(128, 128), enc_hidden_size=64):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5
        self.delta = delta
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_logsigma = nn.Parameter(torch.zeros(1, 1, dim))
        init.xavier_uniform_(self.slots_logsigma)
        self.enc_emb = GridEmbed(enc_hidden_size, resolution)
        self.abs_grid = self.enc_emb.grid  # (1, H, W, 2)
        self.register_buffer("abs_grid_flat", self.abs_grid.reshape(-1, 2).clone())
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.g = nn.Linear(2, dim)
        self.f = _slot_mlp(dim, hidden_dim)
        self.gru = nn.GRUCell(dim, dim)
        self.mlp = _slot_mlp(dim, max(dim, hidden_dim))
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs, n_s=None):
        b, n, d, device = *inputs.shape, inputs.device
        n_s = self.num_slots if n_s is None else n_s
        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = self.slots_logsigma.exp().expand(b, n_s, -1)
        slots = mu + sigma * torch.randn(mu.shape, device=device)
        S_p = 2 * torch.rand((b, n_s, 2), device=device) - 1
        S_r = (np.pi / 4) * torch.tanh(torch.randn((b, n_s, 2, 2), device=device))

        keys_in = self.to_k(inputs).unsqueeze(dim=1)  # (b, 1, n, d)
        vals_in = self.to_v(inputs).unsqueeze(dim=1)

        for t in range(1, self.iters + 1):
            slots_prev = slots
            slots = self.norm_slots(slots)
            rel_grid = (self.abs_grid.unsqueeze(dim=0) - S_p.view(b, n_s, 1, 1, 2)) / self.delta
            pos = self.g(rel_grid).view(b, n_s, -1, d)
            k = self.f(keys_in + pos)  # (b, slots, n, d)
            v = self.f(vals_in + pos)
            q = self.to_q(slots)  # (b, slots, d)

            dots = torch.einsum("bid,bijd->bij", q, k) * self.scale
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bijd,bij->bid", v, attn)

            for i in range(n_s):
                S_p[:, i, :] = (attn[:, i] @ self.abs_grid_flat) / attn[:, i].sum(dim=-1, keepdim=True)

            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots, S_p, S_r
