# case: fill-dgl-set-transformer-key-length-mask
# modelled-on: dmlc/dgl https://github.com/dmlc/dgl/issues/2657
# label: correct
# pattern: the same set-transformer attention with the mask written over the keys only (mask[i, :, :len_mem[i]] = 1): padded query rows still see the real keys, and their outputs are dropped by the caller
# why: every query row keeps the real keys of its own memory set (sets are never empty), so no row is all -inf and softmax stays finite; the padded query rows compute throwaway values that the pooling ignores
# looks-like: ATT007, ATT003
import numpy as np
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, d_head: int):
        super().__init__()
        self.d_head = d_head
        self.num_heads = num_heads
        self.proj_q = nn.Linear(d_model, num_heads * d_head, bias=False)
        self.proj_k = nn.Linear(d_model, num_heads * d_head, bias=False)
        self.proj_v = nn.Linear(d_model, num_heads * d_head, bias=False)
        self.proj_o = nn.Linear(num_heads * d_head, d_model, bias=False)

    def forward(self, x, mem, lengths_x, lengths_mem):
        batch_size, max_len_x, _ = x.shape
        max_len_mem = mem.shape[1]
        queries = self.proj_q(x).view(batch_size, max_len_x, self.num_heads, self.d_head)
        keys = self.proj_k(mem).view(batch_size, max_len_mem, self.num_heads, self.d_head)
        values = self.proj_v(mem).view(batch_size, max_len_mem, self.num_heads, self.d_head)
        e = torch.einsum("bxhd,byhd->bhxy", queries, keys)  # (B, H, Lx, Lmem)
        e = e / np.sqrt(self.d_head)
        mask = torch.zeros(batch_size, max_len_x, max_len_mem, device=e.device)
        for i in range(batch_size):
            mask[i, :, : lengths_mem[i]] = 1
        mask = mask.unsqueeze(1)
        e = e.masked_fill(mask == 0, -float("inf"))
        alpha = torch.softmax(e, dim=-1)
        out = torch.einsum("bhxy,byhd->bxhd", alpha, values)
        return self.proj_o(out.reshape(batch_size, max_len_x, -1))
