# case: fill-dgl-set-transformer-2d-length-mask
# modelled-on: dmlc/dgl https://github.com/dmlc/dgl/issues/2657
# label: buggy
# pattern: set-transformer attention between two padded sets: the (B, Lx, Lmem) mask starts as zeros and a loop writes 1 into mask[i, :len_x[i], :len_mem[i]], so it pads the query side as well as the key side; the scores (B, H, Lx, Lmem) are filled with -inf where the mask is 0
# why: every padded query row is 0 for all keys, so the whole row is -inf and softmax returns NaN there; the NaNs reach the loss after one epoch (the issue traces them to these rows)
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
            mask[i, : lengths_x[i], : lengths_mem[i]] = 1
        mask = mask.unsqueeze(1)
        e = e.masked_fill(mask == 0, -float("inf"))  # expect: ATT007
        alpha = torch.softmax(e, dim=-1)
        out = torch.einsum("bhxy,byhd->bxhd", alpha, values)
        return self.proj_o(out.reshape(batch_size, max_len_x, -1))
