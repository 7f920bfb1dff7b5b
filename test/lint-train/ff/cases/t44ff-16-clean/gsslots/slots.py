# case: t44ff-16-clean
# modelled-on: 00LukeSkyworker00/4dgs-slot-attention https://github.com/00LukeSkyworker00/4dgs-slot-attention/commit/01d38ef23eb5061b9631aba27adcf019aa76499d
# label: correct
# class: clean
# pattern: slot attention over a padded set of Gaussians: `einsum('bid,bjd->bij', k, q)` gives (batch, inputs, slots), softmaxed over the slots (dim=-1) plus eps, the padded inputs zeroed AFTER the softmax with `masked_fill(mask == 0, 0)` (mask (B, G, 1), True = real Gaussian, built by the collate function in another module), then normalised over the inputs (`sum(dim=-2)`) into a weighted mean; the decoder softmaxes per-Gaussian mixing logits over the slot axis (dim=1 of (B, slots, G, 1))
# why: correct: in slot attention the softmax is over the SLOTS for each input (the slots compete for inputs), so zeroing a padded input's row after that softmax only removes the padding from the weighted mean that follows; the renormalisation over dim -2 makes each slot's weights over the real inputs sum to 1. The mask is a keep mask (1 on the real Gaussians). The decoder's softmax over dim 1 mixes each Gaussian over the slots, the axis its weighted sum reduces
# looks-like: ATT001, ATT002, ATT006
# source: https://github.com/00LukeSkyworker00/4dgs-slot-attention https://github.com/00LukeSkyworker00/4dgs-slot-attention/commit/01d38ef23eb5061b9631aba27adcf019aa76499d model.py
import torch
import torch.nn.functional as F
from torch import nn


class MaskedSlotAttention(nn.Module):
    def __init__(self, n_slots, dim, iters=3, eps=1e-8, hidden=128):
        super().__init__()
        self.n_slots = n_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5
        self.mu = nn.Parameter(torch.randn(1, 1, dim))
        self.sigma = nn.Parameter(torch.rand(1, 1, dim))
        self.to_q, self.to_k, self.to_v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        hidden = max(dim, hidden)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))
        self.norm_in = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)

    def forward(self, inputs, mask=None):
        b, n, d = inputs.shape
        slots = torch.normal(self.mu.expand(b, self.n_slots, -1), self.sigma.expand(b, self.n_slots, -1))
        if mask is not None:
            mask = mask.unsqueeze(-1)                                   # (b, n, 1)
        inputs = self.norm_in(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            prev = slots
            q = self.to_q(self.norm_slots(slots))
            logits = torch.einsum("bid,bjd->bij", k, q) * self.scale    # (b, inputs, slots)
            attn = logits.softmax(dim=-1) + self.eps                    # slots compete for each input
            if mask is not None:
                attn = attn.masked_fill(mask == 0, 0)                   # drop padded inputs from the mean
            attn = attn / attn.sum(dim=-2, keepdim=True)
            updates = torch.einsum("bij,bid->bjd", attn, v)
            slots = self.gru(updates.reshape(-1, d), prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(slots)
        return slots


class GaussianHead(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, 3 + 3 + 1))

    def forward(self, x):                                               # x: (B, slots, G, dim)
        pos, color, logit = torch.split(self.net(x), [3, 3, 1], dim=-1)
        return pos, color, F.softmax(logit, dim=1)                      # mix over the slots


class SlotAutoEncoder(nn.Module):
    def __init__(self, n_slots=8, gs_dim=14, dim=128, iters=3):
        super().__init__()
        self.n_slots = n_slots
        self.encode = nn.Linear(gs_dim, dim)
        self.pos_embed = nn.Linear(3, dim)
        self.slots = MaskedSlotAttention(n_slots, dim, iters)
        self.head = GaussianHead(dim, 128)

    def forward(self, gs, pos, mask=None):
        _, G, _ = gs.shape
        x = self.encode(gs) + self.pos_embed(pos)
        slots = self.slots(x, mask)
        per_point = slots.unsqueeze(-2).repeat(1, 1, G, 1)
        new_pos, color, weight = self.head(per_point)
        per_slot = torch.cat([new_pos, gs.unsqueeze(1).repeat(1, self.n_slots, 1, 1)[..., 3:11], color], dim=-1)
        return torch.sum(per_slot * weight, dim=1)
