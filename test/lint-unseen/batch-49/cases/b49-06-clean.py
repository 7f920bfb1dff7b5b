# case: b49-06-clean
# modelled-on: suraj-sedai/transformer-language-model-minigpt https://github.com/suraj-sedai/transformer-language-model-minigpt/commit/93c4bbadacb09d4d9a0e1093049a67b1d1898472
# label: correct
# class: clean
# pattern: the hand-written attention modules of a small language-model project (unmasked, used for tests and as building blocks): a single-head self-attention whose query and key widths equal the model width and which divides by sqrt(embed_dim), a separate attention head projecting to head_dim and dividing by sqrt(head_dim), and a multi-head module that runs a list of such heads and concatenates them before an output projection
# why: correct: in the single-head module Q and K are embed_dim wide, so d_k is embed_dim and sqrt(embed_dim) is the paper's factor; each head of the multi-head module projects to head_dim = embed_dim // num_heads and divides by sqrt(head_dim), its own width; the scores are (B, T, T) with keys last and the softmax is over dim=-1; the modules take no mask by design (bidirectional use)
# looks-like: ATT004
# source: https://github.com/suraj-sedai/transformer-language-model-minigpt https://github.com/suraj-sedai/transformer-language-model-minigpt/commit/93c4bbadacb09d4d9a0e1093049a67b1d1898472 model/attention.py
from math import sqrt

import torch
import torch.nn as nn
import torch.nn.functional as F


class SingleHeadSelfAttention(nn.Module):
    """One head as wide as the model; mostly used in unit tests."""

    def __init__(self, embed_dim):
        super().__init__()
        self.embed_dim = embed_dim
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        # x: (B, T, D)
        q, k, v = self.query(x), self.key(x), self.value(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / sqrt(self.embed_dim)
        probs = F.softmax(scores, dim=-1)
        return torch.matmul(probs, v), probs


class ProjectedHead(nn.Module):
    def __init__(self, embed_dim, head_dim):
        super().__init__()
        self.denominator = sqrt(head_dim)
        self.query = nn.Linear(embed_dim, head_dim)
        self.key = nn.Linear(embed_dim, head_dim)
        self.value = nn.Linear(embed_dim, head_dim)

    def forward(self, x):
        q, k, v = self.query(x), self.key(x), self.value(x)
        scores = q @ k.transpose(-2, -1) / self.denominator
        probs = F.softmax(scores, dim=-1)
        return probs @ v, probs


class HeadList(nn.Module):
    """Multi-head attention as an explicit list of heads, concatenated on the feature axis."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.head_dim = embed_dim // num_heads
        self.heads = nn.ModuleList(ProjectedHead(embed_dim, self.head_dim) for _ in range(num_heads))
        self.merge = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        outs, maps = zip(*(head(x) for head in self.heads))
        return self.merge(torch.cat(outs, dim=-1)), list(maps)


if __name__ == "__main__":
    x = torch.randn(2, 5, 32)
    single_out, single_map = SingleHeadSelfAttention(32)(x)
    multi_out, multi_maps = HeadList(32, 4)(x)
    assert single_map.shape == (2, 5, 5) and len(multi_maps) == 4
    assert torch.allclose(single_map.sum(-1), torch.ones(2, 5))
    print(single_out.shape, multi_out.shape)
