# case: b39-03-clean
# modelled-on: yuta0306/memory-efficient-transformer-pytorch https://github.com/yuta0306/memory-efficient-transformer-pytorch/commit/a88f7b165b28eb13d013439434aa580ff81a5343
# label: correct
# class: clean
# pattern: memory-efficient multi-head attention in PyTorch after Rabe & Staats ("Self-attention does not need O(n^2) memory"): queries are processed in chunks and, for each, the keys and values in chunks; the query is divided by sqrt(head width) once, each key chunk gives einsum("...qhd,...khd->...qhk") weights, a boolean keep mask (True = attend, or == 1 for a 0/1 mask) selects them with torch.where(mask, w, finfo.min), the chunk's max is subtracted and exp'd by hand, and the chunks are merged with the global max (a streaming log-sum-exp), so no softmax call appears at all; layout (batch, length, heads, head_width)
# why: correct: the manual exp over the key axis followed by the division by the summed weights of every chunk is exactly a softmax over all keys, made numerically safe by the running max; the query is pre-scaled by 1/sqrt(head width) before any product; torch.where keeps the score where the mask is True, which is this module's documented mask convention, and finfo.min is finite in every dtype, so fully masked rows stay finite
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/yuta0306/memory-efficient-transformer-pytorch https://github.com/yuta0306/memory-efficient-transformer-pytorch/commit/a88f7b165b28eb13d013439434aa580ff81a5343 memory_efficient_transformer/models/attention.py
import math
from typing import Optional

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


def take(t, dim, start, size):
    return t.narrow(dim, start, min(size, t.size(dim) - start))


class ChunkedMultiHeadAttention(nn.Module):
    def __init__(self, dim: int, heads: int, q_chunk: int = 1024, kv_chunk: int = 4096):
        super().__init__()
        assert dim % heads == 0
        self.heads, self.head_width = heads, dim // heads
        self.q_chunk, self.kv_chunk = q_chunk, kv_chunk
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self.wo = nn.Linear(dim, dim)

    def forward(self, x_q, x_kv, mask: Optional[torch.Tensor] = None):
        """mask: (batch, n_q, n_kv) or (batch, heads, n_q, n_kv); True (or 1) = may attend."""
        b, n_q, _ = x_q.shape
        q = self.wq(x_q).view(b, n_q, self.heads, self.head_width)
        k = self.wk(x_kv).view(b, -1, self.heads, self.head_width)
        v = self.wv(x_kv).view(b, -1, self.heads, self.head_width)
        if mask is not None and mask.dim() == 3:
            mask = mask.unsqueeze(1).expand(-1, self.heads, -1, -1)

        pieces = []
        for start in range(0, n_q, self.q_chunk):
            q_part = take(q, 1, start, self.q_chunk)
            m_part = None if mask is None else take(mask, 2, start, self.q_chunk)
            pieces.append(self._attend_chunk(q_part, k, v, m_part))
        out = torch.cat(pieces, dim=1).reshape(b, n_q, -1)
        return self.wo(out)

    def _attend_chunk(self, q, k, v, mask):
        n_kv = k.size(1)
        q = q / math.sqrt(k.size(-1))

        def partial_sums(q, k_blk, v_blk, m_blk):
            w = torch.einsum("...qhd,...khd->...qhk", q, k_blk)
            if m_blk is not None:
                keep = m_blk if m_blk.dtype == torch.bool else m_blk == 1
                keep = keep.permute(0, 2, 1, 3)
                floor = torch.tensor(torch.finfo(w.dtype).min, device=w.device)
                w = torch.where(keep, w, floor)
            top = w.amax(dim=-1, keepdim=True).detach()
            e = torch.exp(w - top)
            num = torch.einsum("...khf,...qhk->...qhf", v_blk, e)
            return num, e.sum(dim=-1), top.squeeze(-1)

        nums, dens, tops = [], [], []
        for start in range(0, n_kv, self.kv_chunk):
            k_blk = take(k, 1, start, self.kv_chunk)
            v_blk = take(v, 1, start, self.kv_chunk)
            m_blk = None if mask is None else take(mask, 3, start, self.kv_chunk)
            num, den, top = checkpoint(partial_sums, q, k_blk, v_blk, m_blk, use_reentrant=False)
            nums.append(num)
            dens.append(den)
            tops.append(top)

        tops = torch.stack(tops)
        overall = tops.amax(dim=0, keepdim=True)
        rescale = torch.exp(tops - overall)
        num = (torch.stack(nums) * rescale.unsqueeze(-1)).sum(dim=0)
        den = (torch.stack(dens) * rescale).sum(dim=0)
        return num / den.unsqueeze(-1)
