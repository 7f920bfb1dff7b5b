# case: b3-44-scale
# modelled-on: ahanaf019/Vision-Transformer-From-Scratch https://github.com/ahanaf019/Vision-Transformer-From-Scratch/commit/5b9b00775a622d958bb8e6af9674029866ef755c
# label: buggy
# class: real-bug
# pattern: Locality Self-Attention (ViT for small datasets, arXiv 2112.13492): q k^T divided by a learnable temperature instead of a fixed sqrt(d_k), the diagonal (each token's score with itself) masked before a softmax over the last axis
# why: the paper's learnable temperature starts at sqrt(d_k); here it is initialised to 1.0, so the softmax receives unscaled dot products of 512-wide vectors at the start of training (saturated weights); commit 5b9b007 ("Fix Attention ... bugs") initialises it to 0.5 * sqrt(key_dim)
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
        self.temperature = nn.Parameter(torch.tensor(1.0))

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
        x.masked_fill_(mask, value=-1e4)
        return torch.matmul(F.softmax(x, dim=-1), V)  # expect: ATT003
