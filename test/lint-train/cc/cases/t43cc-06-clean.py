# case: t43cc-06-clean
# modelled-on: kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f
# label: correct
# class: clean
# pattern: the local branch of a chunked recurrent attention layer: the keys and values of the previous chunk (at most `local_window` of them) are kept in a state and concatenated in front of the current chunk's keys, and the mask is an additive float mask built as `zeros(t_q, t_k).masked_fill(k_pos > q_pos, float('-inf'))` with `q_pos = arange(t_q) + prefix_len`, cached per shape, and given to `F.scaled_dot_product_attention(q, k_cat, v_cat, attn_mask=mask, is_causal=False)`; the last `local_window` keys are kept for the next chunk
# why: correct: SDPA adds a float mask to the scores, and this one is 0 where a key position is at or before the query's absolute position and -inf after it; shifting the query positions by the number of cached keys makes it bottom-right aligned, so each query sees the whole cached prefix and its own past (the diagonal is always kept, so no row is all -inf); `is_causal=False` is right because the causal structure is in the explicit mask and the key length differs from the query length
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f src/dsra/mhdsra2/improved_dsra_mha.py
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class LocalState:
    local_k: Optional[torch.Tensor] = None
    local_v: Optional[torch.Tensor] = None


class LocalWindowAttention(nn.Module):
    def __init__(self, dim: int, heads: int, local_window: int = 64, detach_state: bool = True):
        super().__init__()
        self.heads = heads
        self.d_head = dim // heads
        self.local_window = local_window
        self.detach_state = detach_state
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        self._mask_key = None
        self._mask = None

    def _to_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.d_head).transpose(1, 2)

    def _prefix_causal_mask(self, t_q: int, t_k: int, prefix_len: int, device, dtype) -> torch.Tensor:
        key = (t_q, t_k, prefix_len, str(device), dtype)
        if self._mask_key == key and self._mask is not None:
            return self._mask
        q_pos = torch.arange(t_q, device=device).unsqueeze(1) + prefix_len
        k_pos = torch.arange(t_k, device=device).unsqueeze(0)
        mask = torch.zeros(t_q, t_k, device=device, dtype=dtype)
        mask = mask.masked_fill(k_pos > q_pos, float("-inf"))
        mask = mask.unsqueeze(0).unsqueeze(0)
        self._mask_key, self._mask = key, mask
        return mask

    def _local(self, q, k, v, state: LocalState) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if state.local_k is not None and state.local_v is not None:
            prev_k = state.local_k.to(device=q.device, dtype=q.dtype)[:, :, -self.local_window :, :]
            prev_v = state.local_v.to(device=q.device, dtype=q.dtype)[:, :, -self.local_window :, :]
            k_cat = torch.cat([prev_k, k], dim=2)
            v_cat = torch.cat([prev_v, v], dim=2)
            prefix = prev_k.shape[2]
        else:
            k_cat, v_cat, prefix = k, v, 0

        mask = self._prefix_causal_mask(q.shape[2], k_cat.shape[2], prefix, q.device, q.dtype)
        out = F.scaled_dot_product_attention(q, k_cat, v_cat, attn_mask=mask, is_causal=False)

        keep = min(self.local_window, k_cat.shape[2])
        new_k, new_v = k_cat[:, :, -keep:, :], v_cat[:, :, -keep:, :]
        if self.detach_state:
            new_k, new_v = new_k.detach(), new_v.detach()
        return out, new_k.contiguous(), new_v.contiguous()

    def forward(self, x: torch.Tensor, state: Optional[LocalState] = None):
        state = state or LocalState()
        q, k, v = (self._to_heads(t) for t in self.qkv(x).chunk(3, dim=-1))
        out, new_k, new_v = self._local(q, k, v, state)
        b, _, t, _ = out.shape
        return self.out(out.transpose(1, 2).reshape(b, t, -1)), LocalState(new_k, new_v)
