# case: t43dd-05-clean
# modelled-on: llinauer/miniGPT https://github.com/llinauer/miniGPT/commit/0b635d25cb676850766545b3ac72da976d809cca
# label: correct
# class: clean
# pattern: a GPT attention layer written with `einops.einsum` on per-head weights (n_heads, d_model, d_head): queries and keys laid out heads after tokens `batch position n_heads d_head`, scores `batch n_heads query_position key_position`, divided by sqrt(d_head) read off a bias's shape, a causal mask `triu(ones(Tq, Tk), 1).bool()` filled in place with a buffer IGNORE = -1e5, `softmax(dim=-1)`, then the context `einsum(attention, values, '... query_position key_position, batch key_position n_heads d_head -> batch query_position n_heads d_head')` and a per-head output projection summed over the heads
# why: correct: the einsum names the axes, and dim=-1 of the pattern is key_position, the axis the product with the values sums over; the queries' heads-after-tokens layout is undone by the einsum itself; d_head is `b_Q.shape[1]`, the per-head width; -1e5 is far below any fp32 score here, so masked keys get weight 0 and the diagonal is always kept
# looks-like: ATT001, ATT004, ATT005, ATT007
# source: https://github.com/llinauer/miniGPT https://github.com/llinauer/miniGPT/commit/0b635d25cb676850766545b3ac72da976d809cca gpt_mini/model.py
import math

import einops
import torch
import torch.nn as nn


class HeadwiseAttention(nn.Module):
    def __init__(self, d_model, n_heads, d_head, init_std=0.02):
        super().__init__()
        self.W_Q = nn.Parameter(torch.empty(n_heads, d_model, d_head))
        self.W_K = nn.Parameter(torch.empty(n_heads, d_model, d_head))
        self.W_V = nn.Parameter(torch.empty(n_heads, d_model, d_head))
        self.W_O = nn.Parameter(torch.empty(n_heads, d_head, d_model))
        for w in (self.W_Q, self.W_K, self.W_V, self.W_O):
            nn.init.normal_(w, std=init_std)
        self.b_Q = nn.Parameter(torch.zeros(n_heads, d_head))
        self.b_K = nn.Parameter(torch.zeros(n_heads, d_head))
        self.b_V = nn.Parameter(torch.zeros(n_heads, d_head))
        self.b_O = nn.Parameter(torch.zeros(d_model))
        self.register_buffer("IGNORE", torch.tensor(-1e5, dtype=torch.float32))

    def causal(self, pattern):
        # the attention pattern is (batch, n_heads, query_position, key_position)
        ahead = torch.triu(torch.ones(pattern.size(-2), pattern.size(-1), device=pattern.device), diagonal=1).bool()
        pattern.masked_fill_(ahead, self.IGNORE)
        return pattern

    def forward(self, resid):
        q = einops.einsum(resid, self.W_Q, "batch position d_model, n_heads d_model d_head -> batch position n_heads d_head") + self.b_Q
        k = einops.einsum(resid, self.W_K, "batch position d_model, n_heads d_model d_head -> batch position n_heads d_head") + self.b_K
        pattern = einops.einsum(
            q, k, "batch query_position n_heads d_head, batch key_position n_heads d_head -> batch n_heads query_position key_position"
        )
        pattern = pattern / math.sqrt(self.b_Q.shape[1])
        pattern = self.causal(pattern)
        pattern = pattern.softmax(dim=-1)
        v = einops.einsum(resid, self.W_V, "batch position d_model, n_heads d_model d_head -> batch position n_heads d_head") + self.b_V
        z = einops.einsum(
            pattern, v, "batch n_heads query_position key_position, batch key_position n_heads d_head -> batch query_position n_heads d_head"
        )
        out = einops.einsum(z, self.W_O, "batch position n_heads d_head, n_heads d_head d_model -> batch position d_model")
        return out + self.b_O
