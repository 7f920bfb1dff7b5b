# case: t22o-03-clean
# modelled-on: ai-clarify/mini-llm https://github.com/ai-clarify/mini-llm/commit/9a92a82334ce9d9e809fb10069d0a5cf73865002
# label: correct
# class: clean
# pattern: a DeepSeek-style small LLM's attention with a tuple KV cache (torch.cat of past keys, past_len = k_len - q_len): the SDPA fast path runs only in training with no cache, no padding mask and no window (is_causal=True, attn_mask=None, scale=softmax_scale); the manual path turns a 2-D HF keep mask additive with (1.0 - mask) * -1e9, adds a bottom-right causal mask built from positions offset by past_len (k_pos > q_pos, as 0/1 times -1e9) only when q_len > 1, and a sliding-window band from an allow mask with (~allow) * -1e9, then softmaxes in float32
# why: correct: is_causal=True is used only when query and key lengths are equal (no cache), so its top-left alignment is right; the manual masks offset the query positions by the cache length, so new tokens see the whole cache and no future token; (1 - keep) and ~allow both put -1e9 on the positions to hide; a one-token decode step needs no causal mask
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ai-clarify/mini-llm https://github.com/ai-clarify/mini-llm/commit/9a92a82334ce9d9e809fb10069d0a5cf73865002 model/model_minillm.py
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowedAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.attn_window = int(config.attn_window)
        self.attn_global_tokens = int(config.attn_global_tokens)
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.kv_proj = nn.Linear(config.hidden_size, 2 * config.hidden_size, bias=False)
        self.o_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.attn_dropout = nn.Dropout(config.attention_dropout)
        self.softmax_scale = self.head_dim ** -0.5

    def forward(
        self,
        x: torch.Tensor,
        past_key_value: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
        use_cache: bool = False,
        attention_mask: Optional[torch.Tensor] = None,
    ):
        bsz, q_len, _ = x.shape
        q = self.q_proj(x).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv_proj(x).chunk(2, dim=-1)
        k = k.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)

        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        present = (k, v) if use_cache else None

        k_len = k.shape[2]
        past_len = k_len - q_len

        use_sdpa = (
            self.training
            and self.attn_window == 0
            and attention_mask is None
            and past_len == 0
            and hasattr(F, "scaled_dot_product_attention")
        )
        if use_sdpa:
            out = F.scaled_dot_product_attention(
                q,
                k,
                v,
                attn_mask=None,
                dropout_p=self.attn_dropout.p if self.training else 0.0,
                is_causal=True,
                scale=self.softmax_scale,
            )
        else:
            scores = torch.matmul(q, k.transpose(-2, -1)) * self.softmax_scale
            if attention_mask is not None:
                if attention_mask.dim() == 2:
                    pad = (1.0 - attention_mask[:, None, None, :]) * -1e9
                    scores = scores + pad
                else:
                    scores = scores + attention_mask
            if q_len > 1:
                q_pos = torch.arange(q_len, device=scores.device) + past_len
                k_pos = torch.arange(k_len, device=scores.device)
                causal = k_pos[None, :] > q_pos[:, None]
                scores = scores + causal.to(scores.dtype) * -1e9
            if self.attn_window > 0:
                q_pos = torch.arange(q_len, device=scores.device) + past_len
                k_pos = torch.arange(k_len, device=scores.device)
                allow = k_pos[None, :] >= (q_pos[:, None] - self.attn_window + 1)
                allow = allow & (k_pos[None, :] <= q_pos[:, None])
                if self.attn_global_tokens > 0:
                    allow = allow | (k_pos[None, :] < self.attn_global_tokens)
                scores = scores + (~allow).to(scores.dtype) * -1e9
            weights = F.softmax(scores, dim=-1, dtype=torch.float32).type_as(q)
            out = torch.matmul(self.attn_dropout(weights), v)

        out = out.transpose(1, 2).contiguous().view(bsz, q_len, -1)
        return self.o_proj(out), present
