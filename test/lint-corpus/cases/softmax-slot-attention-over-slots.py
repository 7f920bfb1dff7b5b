# case: softmax-slot-attention-over-slots
# modelled-on: lucidrains/slot-attention https://github.com/lucidrains/slot-attention/blob/main/slot_attention/slot_attention.py
# label: correct
# pattern: Slot Attention normalises over the slots (the query axis, dim=1 of (B, slots, inputs)) on purpose, then renormalises over inputs
# why: the softmax over slots makes slots compete for each input (Locatello et al. 2020); the following division is a weighted mean, not a mask
# looks-like: ATT001, ATT006
import torch
from torch import nn


class SlotAttention(nn.Module):
    def __init__(self, num_slots: int, dim: int, iters: int = 3, eps: float = 1e-8, hidden_dim: int = 128):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5

        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_logsigma = nn.Parameter(torch.zeros(1, 1, dim))
        nn.init.xavier_uniform_(self.slots_logsigma)

        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        hidden_dim = max(dim, hidden_dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden_dim), nn.ReLU(inplace=True), nn.Linear(hidden_dim, dim))
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs: torch.Tensor, num_slots: int | None = None) -> torch.Tensor:
        b, n, d = inputs.shape  # (B, inputs, dim)
        n_s = num_slots if num_slots is not None else self.num_slots
        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = self.slots_logsigma.exp().expand(b, n_s, -1)
        slots = mu + sigma * torch.randn(mu.shape, device=inputs.device, dtype=inputs.dtype)

        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)  # (B, inputs, dim)

        for _ in range(self.iters):
            slots_prev = slots
            slots = self.norm_slots(slots)
            q = self.to_q(slots)  # (B, slots, dim)

            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale  # (B, slots, inputs)
            attn = dots.softmax(dim=1) + self.eps  # competition among slots
            attn = attn / attn.sum(dim=-1, keepdim=True)  # weighted mean over inputs

            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots
