# case: mask-llama-cache-offset-hstack
# modelled-on: meta-llama/llama https://github.com/meta-llama/llama/blob/main/llama/model.py
# label: correct
# pattern: LLaMA's KV-cache path: an additive -inf mask built with triu(diagonal=1) and left-padded with zeros for the cached start_pos columns (bottom-right alignment), scores over cached keys, softmax in float32
# why: the zero block lets every new query see all cached positions and triu(1) hides only the future; the diagonal is always 0 so no row is -inf everywhere
# looks-like: ATT002, ATT007, ATT008
import math
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim: int, n_heads: int, max_batch_size: int, max_seq_len: int):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)
        self.cache_k = torch.zeros((max_batch_size, max_seq_len, n_heads, self.head_dim))
        self.cache_v = torch.zeros((max_batch_size, max_seq_len, n_heads, self.head_dim))

    def forward(self, x: torch.Tensor, start_pos: int, mask: Optional[torch.Tensor]):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim)

        self.cache_k = self.cache_k.to(xq)
        self.cache_v = self.cache_v.to(xq)
        self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, : start_pos + seqlen]  # (B, cache_len + seqlen, H, hd)
        values = self.cache_v[:bsz, : start_pos + seqlen]

        xq = xq.transpose(1, 2)  # (B, H, seqlen, hd)
        keys = keys.transpose(1, 2)  # (B, H, cache_len + seqlen, hd)
        values = values.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask  # (B, H, seqlen, cache_len + seqlen)
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        output = torch.matmul(scores, values)
        return self.wo(output.transpose(1, 2).contiguous().view(bsz, seqlen, -1))


def build_mask(seqlen: int, start_pos: int, device) -> Optional[torch.Tensor]:
    if seqlen <= 1:
        return None
    mask = torch.full((seqlen, seqlen), float("-inf"), device=device)
    mask = torch.triu(mask, diagonal=1)
    # a zero block for the cached keys: when start_pos > 0 the new queries are bottom-right aligned
    return torch.hstack([torch.zeros((seqlen, start_pos), device=device), mask])
