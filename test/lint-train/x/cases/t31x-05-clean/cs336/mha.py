# case: t31x-05-clean
# modelled-on: bitkira/Stanford-CS336 https://github.com/bitkira/Stanford-CS336/commit/87fdaf1fea0468e049633d56bc0548b3f27f2940
# label: correct
# class: clean
# pattern: a course assignment's transformer LM built from its own pieces in separate modules: a hand-written softmax(x, i) (max-shifted exp over dim i), a scaled_dot_product_attention that turns the keys with einops rearrange("... seq_len d_k -> ... d_k seq_len") and then calls a plain torch.matmul(q, k), divides by sqrt(q.shape[-1]) and fills ~mask with -inf in place; the multi-head module splits heads with rearrange("b s (h dk) -> b h s dk") and builds a bool tril(ones) causal mask
# why: correct: the rearrange is the key transpose, so matmul(q, k) is q @ kᵀ with no second transpose; q.shape[-1] is the per-head width dk after the head split; the mask is a keep mask (True on and below the diagonal) and ~mask selects the future for -inf, every row keeping its diagonal; the helper softmax is taken over i=-1, the key axis
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT007
# source: https://github.com/bitkira/Stanford-CS336 https://github.com/bitkira/Stanford-CS336/commit/87fdaf1fea0468e049633d56bc0548b3f27f2940 assignment1-basics-main/cs336_basics/MHA.py
import torch
import torch.nn as nn
from einops import rearrange

from cs336.sdpa import scaled_dot_product_attention


class MultiheadSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads, device=None):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
        self.device = device
        self.num_heads = num_heads
        self.d_model = d_model
        self.Q = nn.Linear(d_model, d_model, bias=False)
        self.K = nn.Linear(d_model, d_model, bias=False)
        self.V = nn.Linear(d_model, d_model, bias=False)
        self.O = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        mask = torch.tril(torch.ones(x.shape[1], x.shape[1], dtype=int, device=self.device)).bool()
        dk = self.d_model // self.num_heads
        Q = rearrange(self.Q(x), "batch_size seq_len (h dk) -> batch_size h seq_len dk", h=self.num_heads, dk=dk)
        K = rearrange(self.K(x), "batch_size seq_len (h dk) -> batch_size h seq_len dk", h=self.num_heads, dk=dk)
        V = rearrange(self.V(x), "batch_size seq_len (h dv) -> batch_size h seq_len dv", h=self.num_heads, dv=dk)
        out = scaled_dot_product_attention(Q, K, V, mask=mask)
        out = rearrange(out, "batch_size h seq_len dv -> batch_size seq_len (h dv)")
        return self.O(out)
