import torch
import torch.nn as nn


class SlotAttention(nn.Module):
    """Softmax over the slots (queries) on purpose, then a weighted mean over the inputs."""

    def __init__(self, num_slots, dim, iters=3, eps=1e-8):
        super().__init__()
        self.num_slots, self.iters, self.eps = num_slots, iters, eps
        self.scale = dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        self.norm_in = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)

    def forward(self, inputs):
        b, n, d = inputs.shape
        slots = self.slots_mu.expand(b, self.num_slots, -1)
        inputs = self.norm_in(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)  # (b, n, d)
        for _ in range(self.iters):
            prev = slots
            q = self.to_q(self.norm_slots(slots))  # (b, slots, d)
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale  # (b, slots, n)
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), prev.reshape(-1, d)).reshape(b, -1, d)
        return slots
