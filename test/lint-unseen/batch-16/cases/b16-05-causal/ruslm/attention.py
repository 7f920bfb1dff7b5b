# case: b16-05-causal
# modelled-on: AnkumaGithub/miniGPT https://github.com/AnkumaGithub/miniGPT/commit/d1034f5b1b0a38df5383f179d754849ef337d096
# label: buggy
# class: real-bug
# pattern: a small GPT with RoPE and a KV cache: the attention concatenates the cached keys and values (past_key_values) along the time axis; when attention maps are not requested it calls SDPA with attn_mask=None and is_causal=True whatever the cache holds, otherwise it runs a manual path whose mask is a causal tril over the new tokens; the model's generate loop (other module) feeds only the last token once the cache exists
# why: buggy: SDPA's is_causal mask is aligned to the top-left corner, so a decode step with one query and L cached keys lets the query see key 0 only (and a multi-token step over a cache hides most of the cached prefix); with a cache the call needs is_causal=False for a single query, or an explicit bottom-right mask; the repository's own manual path and its generate loop show the intent (every new token attends to the whole prefix); never fixed. The real file also re-rotated the cached keys with RoPE on every step and sliced its manual mask to the wrong width for multi-token steps, separate defects the case writes correctly; in the real repository the maps flag is left to the user, the case's generate switches it off for speed
# source: https://github.com/AnkumaGithub/miniGPT https://github.com/AnkumaGithub/miniGPT/commit/d1034f5b1b0a38df5383f179d754849ef337d096 src/model/model.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, config, rope):
        super().__init__()
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.head_dim = config.n_embd // config.n_head
        self.rope = rope
        self.q_attn = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.k_attn = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.v_attn = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.flash = hasattr(F, "scaled_dot_product_attention")
        self.maps = True
        self.attn_weights = None

    def forward(self, x, past_key_values=None, use_cache=False):
        B, T, C = x.size()
        q = self.q_attn(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = self.k_attn(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = self.v_attn(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)

        offset = past_key_values[0].size(2) if past_key_values is not None else 0
        q = self.rope(q, offset)
        k = self.rope(k, offset)
        if past_key_values is not None:
            k_prev, v_prev = past_key_values
            k = torch.cat([k_prev, k], dim=2)
            v = torch.cat([v_prev, v], dim=2)
        new_key_values = (k, v) if use_cache else None

        if self.flash and self.maps is False:
            y = F.scaled_dot_product_attention(
                q, k, v,
                attn_mask=None,
                dropout_p=self.attn_dropout.p if self.training else 0.0,
                is_causal=True,  # expect: ATT008
            )
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            keep = torch.tril(torch.ones(T, k.size(2), device=x.device), diagonal=k.size(2) - T)
            att = att.masked_fill(keep.view(1, 1, T, -1) == 0, float("-inf"))
            att = self.attn_dropout(F.softmax(att, dim=-1))
            self.attn_weights = att
            y = att @ v

        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y), new_key_values
