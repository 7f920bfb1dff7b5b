# case: t35bb-02-fill
# modelled-on: Linhengyang/aiml https://github.com/Linhengyang/aiml/commit/fd05c9a7d12029d9da597142e30a8fb60e8a890e
# label: correct
# class: fixed
# pattern: the fix of t35bb-01-fill: the same KV-cached causal multi-head attention, the causal mask (bottom-right, from a registered strict upper triangle or triu(diagonal=L_past + 1)) still filled with -inf, and the packed-document / padding keep mask built in another module now filled with the finite -1e9 (`masked_fill(attention_mask == False, -1e9)`)
# why: correct: the causal fill leaves the diagonal of every row finite, so no row is all -inf; the padding fill is finite, so a PAD query whose keep row is all False gets a finite row (uniform weights over the keys its causal mask allows) instead of NaN, and its output is discarded by the loss; float32 model, so -1e9 is representable
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Linhengyang/aiml https://github.com/Linhengyang/aiml/commit/fd05c9a7d12029d9da597142e30a8fb60e8a890e src/core/nn_components/root_layers/attention_pool.py
import math
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalMHA(nn.Module):
    """Causal multi-head self-attention for train / prefill / one-token decode with a KV cache."""

    def __init__(self, embd_size: int, num_head: int, use_bias: bool, max_context_size: int,
                 attn_p_drop: float, resid_p_drop: float, use_cached_causal_mask: bool):
        super().__init__()
        assert embd_size % num_head == 0
        self.D = embd_size
        self.H = num_head
        self.d = embd_size // num_head
        self.scale = 1.0 / math.sqrt(self.d)

        self.W_qkv = nn.Linear(embd_size, 3 * embd_size, bias=use_bias)
        self.W_o = nn.Linear(embd_size, embd_size, bias=use_bias)
        self.attn_drop = nn.Dropout(attn_p_drop)
        self.resid_drop = nn.Dropout(resid_p_drop)

        if use_cached_causal_mask:
            # True strictly above the diagonal (the future)
            self.register_buffer(
                "causal_mask",
                torch.triu(torch.ones(max_context_size, max_context_size, dtype=torch.bool), diagonal=1)[None, None, :, :],
                persistent=False,
            )

    def forward(self, x: torch.Tensor, kv_cache: Tuple[torch.Tensor, torch.Tensor] | None = None,
                return_cache: bool = False, attention_mask: torch.Tensor | None = None):
        # x [B, L_q, D]; kv_cache k/v [B, H, L_past, d]; attention_mask [B, L_q, L_past + L_q] bool, True = keep
        L_q = x.size(1)
        q, k, v = self.W_qkv(x).split(self.D, dim=-1)
        q = q.view(-1, L_q, self.H, self.d).transpose(1, 2)  # [B, H, L_q, d]
        k = k.view(-1, L_q, self.H, self.d).transpose(1, 2)
        v = v.view(-1, L_q, self.H, self.d).transpose(1, 2)

        if kv_cache:
            k_past, v_past = kv_cache
            k, v = torch.cat([k_past, k], dim=2), torch.cat([v_past, v], dim=2)  # [B, H, L_so_far, d]

        L_so_far = k.size(2)
        L_past = L_so_far - L_q

        attn_w = torch.matmul(q, k.transpose(2, 3)) * self.scale  # [B, H, L_q, L_so_far]

        if hasattr(self, "causal_mask"):
            causal_mask = self.causal_mask[:, :, L_past:L_so_far, :L_so_far]
        else:
            causal_mask = torch.triu(
                torch.ones(L_q, L_so_far, dtype=torch.bool, device=attn_w.device),
                diagonal=L_past + 1,
            )[None, None, :, :]
        attn_w = attn_w.masked_fill(causal_mask, float("-inf"))

        if attention_mask is not None:
            # True = valid, False = PAD or another document; a finite fill: with the causal -inf a PAD
            # query row would otherwise be all -inf, and softmax turns such a row into NaN
            attn_w = attn_w.masked_fill((attention_mask == False).unsqueeze(1), -1e9)

        attn_w = F.softmax(attn_w, dim=-1)  # [B, H, L_q, L_so_far]
        attn_w = self.attn_drop(attn_w)
        y = torch.matmul(attn_w, v)  # [B, H, L_q, d]

        y = y.transpose(1, 2).reshape(-1, L_q, self.D)
        y = self.resid_drop(self.W_o(y))

        new_kv_cache = (k, v) if return_cache else None
        return y, new_kv_cache
