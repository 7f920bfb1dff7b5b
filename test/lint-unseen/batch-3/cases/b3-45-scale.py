# case: b3-45-scale
# modelled-on: ahanaf019/Vision-Transformer-From-Scratch https://github.com/ahanaf019/Vision-Transformer-From-Scratch/commit/5b9b00775a622d958bb8e6af9674029866ef755c
# label: correct
# class: fixed
# pattern: after the fix, Locality Self-Attention (ViT for small datasets, arXiv 2112.13492): q k^T divided by a learnable temperature instead of a fixed sqrt(d_k), the diagonal (each token's score with itself) masked before a softmax over the last axis
# why: the learnable temperature starts at 0.5 * sqrt(key_dim) (commit 5b9b007), so the dot products are scaled by about 1/sqrt(d_k) from the start and the temperature is learned from there; the diagonal fill is the dtype's lowest value; keys are 3-D, so transpose(1, 2) swaps the last two axes
# looks-like: ATT003, ATT004, ATT005, ATT007
# source: https://github.com/ahanaf019/Vision-Transformer-From-Scratch https://github.com/ahanaf019/Vision-Transformer-From-Scratch/commit/5b9b00775a622d958bb8e6af9674029866ef755c models/modules/locality_attention.py
# Reference: https://arxiv.org/abs/2112.13492
import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalityAttention(nn.Module):
    def __init__(self, attention_dim, key_dim, query_dim, value_dim):
        super().__init__()
        self.attention_dim = attention_dim
        self.key_dim = key_dim
        self.query = nn.Linear(attention_dim, query_dim)
        self.key = nn.Linear(attention_dim, key_dim)
        self.value = nn.Linear(attention_dim, value_dim)
        self.temperature = nn.Parameter(torch.tensor(0.5 * (key_dim ** 0.5)))

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
        Q = self.query(q)
        K = self.key(k)
        V = self.value(v)

        x = torch.matmul(Q, torch.transpose(K, dim0=1, dim1=2))
        # scale with the temperature
        x = x / self.temperature

        # diagonal masking: a token does not attend to itself
        mask = torch.eye(x.shape[-1], device=x.device, dtype=torch.bool)
        mask = mask.expand(x.shape[0], -1, -1)
        x.masked_fill_(mask, value=torch.finfo(x.dtype).min)
        return torch.matmul(F.softmax(x, dim=-1), V)
