# case: t35bb-01-fill
# modelled-on: Linhengyang/aiml https://github.com/Linhengyang/aiml/commit/be81d1d11550c94bcf67f9d1e15a8c66bd5b6ef3
# label: buggy
# class: real-bug
# pattern: a from-scratch GPT-2 causal multi-head attention with a KV cache: a bottom-right causal mask (a registered strict upper triangle sliced [L_past:L_so_far, :L_so_far], or triu(diagonal=L_past + 1)) filled with -inf, then a packed-document / padding keep mask built in another module (True only where query and key are both non-PAD and in the same document) applied as `masked_fill(attention_mask == False, -inf)`, then softmax(dim=-1)
# why: buggy: the keep mask is False on the whole row of a PAD query (segments.py: `pad_mask = not_pad[..., None] * not_pad[..., None, :]`), so every score of that row is -inf after the second masked_fill and softmax returns NaN for it; the NaN reaches the loss through the values and the later layers (the author's fix "fix nan loss bug" changes only this fill to -1e9, noting that a fully -inf row becomes NaN in softmax)
# source: https://github.com/Linhengyang/aiml https://github.com/Linhengyang/aiml/commit/be81d1d11550c94bcf67f9d1e15a8c66bd5b6ef3 src/core/nn_components/root_layers/attention_pool.py
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
            # True = valid, False = PAD or another document
            attn_w = attn_w.masked_fill((attention_mask == False).unsqueeze(1), float("-inf"))  # expect: ATT007

        attn_w = F.softmax(attn_w, dim=-1)  # [B, H, L_q, L_so_far]
        attn_w = self.attn_drop(attn_w)
        y = torch.matmul(attn_w, v)  # [B, H, L_q, d]

        y = y.transpose(1, 2).reshape(-1, L_q, self.D)
        y = self.resid_drop(self.W_o(y))

        new_kv_cache = (k, v) if return_cache else None
        return y, new_kv_cache
