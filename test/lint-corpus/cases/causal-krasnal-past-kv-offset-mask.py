# case: causal-krasnal-past-kv-offset-mask
# modelled-on: KSI-ML-research/krasnal https://github.com/KSI-ML-research/krasnal/pull/68
# label: correct
# pattern: a GPT block with a KV cache passed as past_kv: is_causal=True is set first and switched off inside the past_kv branch, where a chunk of several new tokens gets an explicit boolean mask k_pos <= q_pos built from absolute positions (past_len + i), and a single new token gets no mask
# why: with a cache SDPA's is_causal would be top-left aligned, so the cached path turns it off; the explicit mask is True where a key may be attended (SDPA's convention) and is aligned to the end of the keys, and one new token may attend to every cached key
# looks-like: ATT008, ATT002
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, dropout: float = 0.0):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.n_embd = n_embd
        self.dropout = dropout

    def forward(
        self, x: torch.Tensor, past_kv: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
    ) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor]]:
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)

        past_len = 0
        if past_kv is not None:
            past_k, past_v = past_kv
            past_len = past_k.size(2)
            k = torch.cat([past_k, k], dim=2)  # (B, nh, past_len + T, hs)
            v = torch.cat([past_v, v], dim=2)
        present = (k, v)

        attn_mask = None
        is_causal = True
        if past_kv is not None:
            # with a cache only the new tokens need masking, against absolute positions
            is_causal = False
            if T > 1:
                q_pos = torch.arange(past_len, past_len + T, device=x.device).unsqueeze(-1)  # (T, 1)
                k_pos = torch.arange(0, past_len + T, device=x.device).unsqueeze(0)  # (1, S)
                attn_mask = k_pos <= q_pos  # (T, S), True = may attend

        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_mask, dropout_p=self.dropout if self.training else 0.0, is_causal=is_causal
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, T, C)
        return self.c_proj(y), present
