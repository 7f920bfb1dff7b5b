# case: t28u-02-clean
# modelled-on: evelinehong/slot-attention-pytorch https://github.com/evelinehong/slot-attention-pytorch/commit/1518c23c312f93b961f8c071136f0093b741863a
# label: correct
# class: clean
# pattern: Slot Attention (Locatello et al. 2020) for unsupervised object discovery: self.scale = dim ** -0.5 with dim the full slot width (one head); q from the slots (B, S, D), k and v from the image features (B, N, D); dots = einsum('bid,bjd->bij', q, k) * self.scale is (B, S, N); dots.softmax(dim=1) normalises over the slots, then eps is added and each slot's row is renormalised over the inputs (dim=-1) before einsum('bjd,bij->bid', v, attn); the decoder's alpha masks are softmaxed over the slot axis (dim=1) too
# why: correct: the softmax over the slot axis is the paper's competition between slots for each input location (deliberately not over the keys), and the row renormalisation makes each update a weighted mean; there is a single head, so the slot width dim is the width the product sums over and dim ** -0.5 is 1/sqrt(d_k); the einsum contracts the feature axis, no transpose is needed
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/evelinehong/slot-attention-pytorch https://github.com/evelinehong/slot-attention-pytorch/commit/1518c23c312f93b961f8c071136f0093b741863a model.py
import numpy as np
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
        self.slots_log_sigma = nn.Parameter(torch.rand(1, 1, dim))
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
        b, n, d = inputs.shape  # (B, N, D) flattened feature map
        n_s = num_slots if num_slots is not None else self.num_slots
        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = torch.exp(self.slots_log_sigma.expand(b, n_s, -1))
        slots = mu + sigma * torch.randn_like(sigma)  # (B, S, D)

        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)  # (B, N, D)

        for _ in range(self.iters):
            slots_prev = slots
            q = self.to_q(self.norm_slots(slots))  # (B, S, D)
            dots = torch.einsum("bid,bjd->bij", q, k) * self.scale  # (B, S, N)
            attn = dots.softmax(dim=1) + self.eps  # slots compete for every input
            attn = attn / attn.sum(dim=-1, keepdim=True)  # weighted mean over the inputs
            updates = torch.einsum("bjd,bij->bid", v, attn)  # (B, S, D)
            slots = self.gru(updates.reshape(-1, d), slots_prev.reshape(-1, d)).reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))
        return slots


def build_grid(resolution):
    ranges = [np.linspace(0.0, 1.0, num=r) for r in resolution]
    grid = np.stack(np.meshgrid(*ranges, sparse=False, indexing="ij"), axis=-1)
    grid = grid.reshape(1, resolution[0], resolution[1], -1).astype(np.float32)
    return torch.from_numpy(np.concatenate([grid, 1.0 - grid], axis=-1))


class SoftPositionEmbed(nn.Module):
    def __init__(self, hidden_size, resolution):
        super().__init__()
        self.embedding = nn.Linear(4, hidden_size)
        self.register_buffer("grid", build_grid(resolution))

    def forward(self, x):
        return x + self.embedding(self.grid)


class SlotAutoEncoderHead(nn.Module):
    """Encoder features -> slots -> per-slot RGB and alpha, combined by a softmax over the slots."""

    def __init__(self, resolution, num_slots, iters, hid_dim):
        super().__init__()
        self.pos = SoftPositionEmbed(hid_dim, resolution)
        self.fc = nn.Sequential(nn.Linear(hid_dim, hid_dim), nn.ReLU(), nn.Linear(hid_dim, hid_dim))
        self.slot_attention = SlotAttention(num_slots=num_slots, dim=hid_dim, iters=iters)
        self.render = nn.Linear(hid_dim, 4)

    def forward(self, feats):
        # feats: (B, H, W, D) after the CNN
        x = torch.flatten(self.pos(feats), 1, 2)  # (B, H*W, D)
        x = self.fc(F.layer_norm(x, x.shape[-1:]))
        slots = self.slot_attention(x)  # (B, S, D)
        out = self.render(slots[:, :, None, :] + x[:, None, :, :])  # (B, S, H*W, 4)
        recons, masks = out.split([3, 1], dim=-1)
        masks = masks.softmax(dim=1)  # alpha masks normalised over the slots
        return (recons * masks).sum(dim=1), masks, slots
