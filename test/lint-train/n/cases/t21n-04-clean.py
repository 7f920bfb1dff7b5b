# case: t21n-04-clean
# modelled-on: MehrdadDastouri/attention-mechanisms-zoo https://github.com/MehrdadDastouri/attention-mechanisms-zoo/commit/0ff742e880c6983d8d225a9fd65823eaa29f202e
# label: correct
# class: clean
# pattern: a zoo of attention layers whose masks all mean True = masked: the teaching FlashAttention computes each query block against key blocks with scores * d_k ** -0.5, masked_fill(mask_block.bool(), -inf), a running max and running sum of exponentials (online softmax, no softmax call) and divides by the clamped sum at the end; the same class has a path through F.scaled_dot_product_attention that passes attn_mask=~mask.bool() (is_causal=False, default scale) because SDPA's boolean mask means True = attend
# why: correct: the online softmax normalises over the key axis exactly as softmax(dim=-1) would (rescaling the running sum and output by exp(old_max - new_max) at each block); the manual path fills the True (masked) positions, and the SDPA path inverts the same mask into SDPA's keep convention; both scale by 1/sqrt(d_k) once (SDPA by default)
# looks-like: ATT001, ATT002, ATT003, ATT007, ATT008
# source: https://github.com/MehrdadDastouri/attention-mechanisms-zoo https://github.com/MehrdadDastouri/attention-mechanisms-zoo/commit/0ff742e880c6983d8d225a9fd65823eaa29f202e src/attention_zoo/flash.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class BlockwiseAttention(nn.Module):
    """mask: True where a query may not attend to a key, shape (B, Lq, Lk) or (B, 1, Lq, Lk)."""

    def __init__(self, d_model: int, num_heads: int, block_q: int = 64, block_kv: int = 64, dropout: float = 0.0):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.scale = self.d_k ** -0.5
        self.block_q = block_q
        self.block_kv = block_kv
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def _heads(self, x, length):
        return x.view(x.size(0), length, self.num_heads, self.d_k).transpose(1, 2)

    def _query_block(self, q_blk, k, v, mask_blk):
        b, _, n_q, _ = q_blk.shape
        out = torch.zeros_like(q_blk)
        run_max = torch.full((b, self.num_heads, n_q, 1), float("-inf"), device=q_blk.device, dtype=q_blk.dtype)
        run_sum = torch.zeros((b, self.num_heads, n_q, 1), device=q_blk.device, dtype=q_blk.dtype)
        for start in range(0, k.size(2), self.block_kv):
            k_blk = k[:, :, start:start + self.block_kv]
            v_blk = v[:, :, start:start + self.block_kv]
            s = torch.matmul(q_blk, k_blk.transpose(-2, -1)) * self.scale
            if mask_blk is not None:
                s = s.masked_fill(mask_blk[..., start:start + self.block_kv].bool(), float("-inf"))
            new_max = torch.maximum(run_max, s.max(dim=-1, keepdim=True).values)
            rescale = torch.exp(run_max - new_max)
            p = torch.exp(s - new_max)
            run_sum = run_sum * rescale + p.sum(dim=-1, keepdim=True)
            out = out * rescale + torch.matmul(p, v_blk)
            run_max = new_max
        return out / run_sum.clamp(min=1e-6)

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None):
        b, lq, lk = query.size(0), query.size(1), key.size(1)
        q = self._heads(self.w_q(query), lq)
        k = self._heads(self.w_k(key), lk)
        v = self._heads(self.w_v(value), lk)
        if mask is not None and mask.dim() == 3:
            mask = mask.unsqueeze(1)
        blocks = []
        for start in range(0, lq, self.block_q):
            m = None if mask is None else (mask[:, :, start:start + self.block_q] if mask.size(2) > 1 else mask)
            blocks.append(self._query_block(q[:, :, start:start + self.block_q], k, v, m))
        out = self.dropout(torch.cat(blocks, dim=2)).transpose(1, 2).contiguous().view(b, lq, self.d_model)
        return self.w_o(out)

    def forward_sdpa(self, query, key, value, mask: Optional[torch.Tensor] = None):
        b, lq, lk = query.size(0), query.size(1), key.size(1)
        q = self._heads(self.w_q(query), lq)
        k = self._heads(self.w_k(key), lk)
        v = self._heads(self.w_v(value), lk)
        if mask is not None and mask.dim() == 3:
            mask = mask.unsqueeze(1)
        out = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=None if mask is None else ~mask.bool(),
            dropout_p=self.dropout.p if self.training else 0.0,
            is_causal=False,
        )
        return self.w_o(out.transpose(1, 2).contiguous().view(b, lq, self.d_model))
