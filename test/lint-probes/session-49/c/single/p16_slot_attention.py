import torch
import torch.nn as nn


class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8):
        super().__init__()
        self.num_slots, self.iters, self.eps = num_slots, iters, eps
        self.scale = dim ** -0.5
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))

    def forward(self, inputs, input_mask):
        # inputs: (b, n, d); input_mask: (b, n) float, 1 at real inputs
        b, n, d = inputs.shape
        slots = self.slots_mu.expand(b, self.num_slots, -1)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            q = self.to_q(slots)
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale  # (b, slots, n)
            attn = dots.softmax(dim=1) + self.eps  # slots compete for each input
            attn = attn * input_mask[:, None, :]
            attn = attn / attn.sum(dim=-1, keepdim=True)  # weighted mean over the inputs
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), slots.reshape(-1, d)).reshape(b, -1, d)
        return slots
