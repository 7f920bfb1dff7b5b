# case: postmask-mist-bool-added-as-bias
# modelled-on: coleygroup/DiffMS https://github.com/coleygroup/DiffMS/issues/25
# label: buggy
# pattern: the padding mask for spectrum peaks is a bool tensor (True = padded peak); a -inf bias is built from it but the raw bool mask is what gets added to the scores
# why: adding a bool mask adds +1 to padded positions instead of -inf, so padded peaks are not removed (they are even favoured); the real -inf bias is computed and dropped
import math
from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn


class PeakAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = dropout

    def _scaled_dot_product_attention(self, q: Tensor, k: Tensor, v: Tensor, attn_mask: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
        # q: (B*H, Nt, E); k, v: (B*H, Ns, E); attn_mask: (B*H, Nt, Ns) bool, True = padded peak
        B, Nt, E = q.shape
        q = q / math.sqrt(E)
        attn = torch.bmm(q, k.transpose(-2, -1))  # (B*H, Nt, Ns)
        if attn_mask is not None:
            new_attn_mask = torch.zeros_like(attn_mask, dtype=q.dtype)
            new_attn_mask.masked_fill_(attn_mask, float("-inf"))
            attn += attn_mask  # expect: ATT006
        attn = F.softmax(attn, dim=-1)
        if self.dropout > 0.0:
            attn = F.dropout(attn, p=self.dropout)
        output = torch.bmm(attn, v)
        return output, attn

    def forward(self, x: Tensor, key_padding_mask: Tensor) -> Tensor:
        # x: (Np, B, E) peaks first; key_padding_mask: (B, Np) True = padded peak
        n_peaks, bsz, _ = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.contiguous().view(n_peaks, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        k = k.contiguous().view(n_peaks, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        v = v.contiguous().view(n_peaks, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        mask = key_padding_mask.view(bsz, 1, 1, n_peaks).expand(-1, self.num_heads, n_peaks, -1)
        mask = mask.reshape(bsz * self.num_heads, n_peaks, n_peaks)
        out, _ = self._scaled_dot_product_attention(q, k, v, mask)
        out = out.transpose(0, 1).contiguous().view(n_peaks, bsz, self.embed_dim)
        return self.out_proj(out)
