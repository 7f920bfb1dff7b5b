# case: b7-02-clean
# modelled-on: wadkars-lgtm/nanoGPT https://github.com/wadkars-lgtm/nanoGPT/commit/25b7b0e0c9cb0a8dd63df5edb953a14b49f3ab0a
# label: correct
# class: clean
# pattern: a nanoGPT fork with a KV cache for incremental decoding: at prefill SDPA runs with is_causal=True (no cache yet); a one-token decode step concatenates the cached keys and calls SDPA with is_causal=False and no mask; a chunked decode step (several new tokens after a cache) builds an offset boolean mask j <= past_len + i (True = may attend); the slow path slices the tril buffer only at prefill and inverts the offset mask with ~ for masked_fill; a sampling module in another file drives prefill and decode
# why: correct: the causal flag is True only when no cached keys exist (query and key lengths equal), a single new query may attend to every cached key, and the chunk mask is aligned bottom-right (past_len offset) and has SDPA's boolean convention (True = attend)
# looks-like: ATT002, ATT008
# source: https://github.com/wadkars-lgtm/nanoGPT https://github.com/wadkars-lgtm/nanoGPT/commit/25b7b0e0c9cb0a8dd63df5edb953a14b49f3ab0a model.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, dropout: float = 0.0):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head, self.n_embd, self.dropout = n_head, n_embd, dropout
        self.flash = hasattr(F, "scaled_dot_product_attention")
        if not self.flash:
            self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    @staticmethod
    def offset_causal_mask(t_new: int, t_total: int, past_len: int, device) -> torch.Tensor:
        """(t_new, t_total) bool, True where key j may be attended by new query i: j <= past_len + i."""
        i = torch.arange(t_new, device=device)[:, None]
        j = torch.arange(t_total, device=device)[None, :]
        return j <= past_len + i

    def forward(self, x, use_cache: bool = False, past_kv=None):
        B, T_new, C = x.size()
        hs = C // self.n_head
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T_new, self.n_head, hs).transpose(1, 2)  # (B, nh, T_new, hs)
        k = k.view(B, T_new, self.n_head, hs).transpose(1, 2)
        v = v.view(B, T_new, self.n_head, hs).transpose(1, 2)

        past_len = 0
        if past_kv is not None:
            k_past, v_past = past_kv
            past_len = k_past.size(2)
            k = torch.cat([k_past, k], dim=2)  # (B, nh, T_total, hs)
            v = torch.cat([v_past, v], dim=2)
        T_total = k.size(2)
        chunked = past_kv is not None and T_new > 1

        if self.flash:
            p = self.dropout if self.training else 0.0
            if chunked:
                mask = self.offset_causal_mask(T_new, T_total, past_len, x.device)
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p, is_causal=False)
            else:
                # prefill: square, causal; one-token decode: the new token sees the whole cache
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=p, is_causal=past_kv is None)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))  # (B, nh, T_new, T_total)
            if past_kv is None:
                att = att.masked_fill(self.bias[:, :, :T_new, :T_new] == 0, float("-inf"))
            elif chunked:
                mask = self.offset_causal_mask(T_new, T_total, past_len, x.device).view(1, 1, T_new, T_total)
                att = att.masked_fill(~mask, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T_new, C)
        return self.c_proj(y), ((k, v) if use_cache else None)
