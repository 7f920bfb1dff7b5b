# case: b15-10-clean
# modelled-on: qhfan/RMT https://github.com/qhfan/RMT/commit/32ea21417a4d82ba6481f930f94cb4696dda0a8e
# label: correct
# class: clean
# pattern: a vision backbone with "retention" attention: a relative-position module builds, per head, log(gamma_h) times the Manhattan distance between patches on the H x W grid (0 on the diagonal, negative elsewhere) together with rotary sin/cos tables; the attention multiplies the keys by key_dim ** -0.5 right after projecting them (the queries are not scaled), rotates q and k, flattens the grid, adds the decay tensor to q @ k^T and softmaxes over the last axis
# why: correct: the decay is an additive log-domain bias (softmax(A + log gamma^d) is the paper's gamma^d-weighted attention), not a 0/1 mask, so adding it before the softmax is right and no -inf fill is expected; scaling only the keys by 1/sqrt(key_dim) scales every logit by the same factor as dividing q @ k^T would; the softmax runs over the keys
# looks-like: ATT002, ATT003, ATT004, ATT006
# source: https://github.com/qhfan/RMT https://github.com/qhfan/RMT/commit/32ea21417a4d82ba6481f930f94cb4696dda0a8e classfication_release/RMT.py
import torch
import torch.nn as nn


def rotate_every_two(x):
    x1 = x[:, :, :, :, ::2]
    x2 = x[:, :, :, :, 1::2]
    return torch.stack([-x2, x1], dim=-1).flatten(-2)


def theta_shift(x, sin, cos):
    return (x * cos) + (rotate_every_two(x) * sin)


class GridRetention(nn.Module):
    def __init__(self, embed_dim, num_heads, value_factor=1):
        super().__init__()
        self.num_heads = num_heads
        self.key_dim = embed_dim // num_heads
        self.scaling = self.key_dim ** -0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim * value_factor)
        self.out_proj = nn.Linear(embed_dim * value_factor, embed_dim)

    def forward(self, x, rel_pos):
        """x: (b, h, w, c); rel_pos: ((sin, cos), decay) with decay (heads, h*w, h*w)."""
        bsz, h, w, _ = x.size()
        (sin, cos), decay = rel_pos
        assert h * w == decay.size(1)

        q = self.q_proj(x)
        k = self.k_proj(x)
        v = self.v_proj(x)
        k *= self.scaling

        q = q.view(bsz, h, w, self.num_heads, -1).permute(0, 3, 1, 2, 4)  # (b, n, h, w, d)
        k = k.view(bsz, h, w, self.num_heads, -1).permute(0, 3, 1, 2, 4)
        qr = theta_shift(q, sin, cos).flatten(2, 3)  # (b, n, l, d)
        kr = theta_shift(k, sin, cos).flatten(2, 3)
        vr = v.reshape(bsz, h, w, self.num_heads, -1).permute(0, 3, 1, 2, 4).flatten(2, 3)

        scores = qr @ kr.transpose(-1, -2)  # (b, n, l, l)
        scores = scores + decay
        weights = torch.softmax(scores, -1)
        out = torch.matmul(weights, vr).transpose(1, 2).reshape(bsz, h, w, -1)
        return self.out_proj(out)
