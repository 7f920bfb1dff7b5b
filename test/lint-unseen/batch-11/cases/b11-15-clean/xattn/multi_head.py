# case: b11-15-clean
# modelled-on: 565353780/fast-dit https://github.com/565353780/fast-dit/commit/1d7d83b7e527ede2fa67c3974e1a650d28f81640
# label: correct
# class: clean
# pattern: two cross-attention modules of a diffusion-transformer project, in one package: an einops version that folds heads into the batch ("b n (h d) -> (b h) n d"), scores with einsum "b i d, b j d -> b i j" times dim_head ** -0.5 set in __init__ and softmax over the last axis; and a multi-head version that splits heads with view + transpose(1, 2), stores self.norm = sqrt(heads * dim_head) in __init__ but never uses it, and calls a plain attention module in another file that transposes the keys with torch.transpose(K, -1, -2) and divides by sqrt(Q.size(-1)) inside the softmax
# why: correct: both paths scale by the per-head width (dim_head ** -0.5; Q.size(-1) of the split heads); the model-width norm in the multi-head module is dead code, never applied to the scores; the einsum contracts the feature axis, and transpose(K, -1, -2) swaps the keys' last two axes; what a naive linter could misread: ATT004 (a sqrt of the total head width stored next to the attention), ATT005 (torch.transpose(K, -1, -2)), ATT001 (softmax of scores with heads folded into the batch)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/565353780/fast-dit https://github.com/565353780/fast-dit/commit/1d7d83b7e527ede2fa67c3974e1a650d28f81640 fast_dit/Model/CrossAttention/multi_head.py
from math import sqrt

import torch
import torch.nn as nn

from xattn.attention import Attention
from xattn.cross import CrossAttention


class MultiHeadCrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim, heads, dim_head):
        super().__init__()
        self.num_heads = heads
        self.h_size = dim_head
        all_head_size = heads * dim_head
        self.linear_q = nn.Linear(query_dim, all_head_size, bias=False)
        self.linear_k = nn.Linear(context_dim, all_head_size, bias=False)
        self.linear_v = nn.Linear(context_dim, all_head_size, bias=False)
        self.linear_output = nn.Linear(all_head_size, query_dim)
        self.norm = sqrt(all_head_size)

    def forward(self, x, y):
        b = x.size(0)
        q = self.linear_q(x).view(b, -1, self.num_heads, self.h_size).transpose(1, 2)
        k = self.linear_k(y).view(b, -1, self.num_heads, self.h_size).transpose(1, 2)
        v = self.linear_v(y).view(b, -1, self.num_heads, self.h_size).transpose(1, 2)
        out = Attention()(q, k, v)
        out = out.transpose(1, 2).contiguous().view(b, -1, self.num_heads * self.h_size)
        return self.linear_output(out)


if __name__ == "__main__":
    features, conditions = torch.rand(10, 3, 40), torch.rand(10, 2, 30)
    print(CrossAttention(40, 30, 17, 3)(features, conditions).shape)
    print(MultiHeadCrossAttention(40, 30, 17, 3)(features, conditions).shape)
