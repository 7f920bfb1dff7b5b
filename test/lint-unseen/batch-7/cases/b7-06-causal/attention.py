# case: b7-06-causal
# modelled-on: BasmaElhoseny01/X-Reporto-AI https://github.com/BasmaElhoseny01/X-Reporto-AI/commit/ecc5536484a1bdae1c9e67b60e3805aa82448b5c
# label: buggy
# class: real-bug
# pattern: a report-generation GPT-2 decoder conditioned on one image token: the image key and value join the text keys on the first pass, past keys and values are concatenated on later passes (the decoder module in another file feeds the cache back one token at a time), and the causal buffer is sliced top-left [:L, :S] before torch.where(causal, scores, -1e4); sizes come from a config class in a third file
# why: buggy: with S keys (the image key, or the cached prefix, in front of the L new queries) the top-left slice gives query i the keys 0..i, so in a one-token decoding step the new token sees only the first key and in training every text token loses itself; the fix commits ("update GPT2", then "finallyyy...") slice bottom-right [S - L : S, :S]. The real file at this commit also appended the image key after the text and shifted the buffer by a row; the case keeps the image key in front, as the fixed file does, so the slice is the one defect
# source: https://github.com/BasmaElhoseny01/X-Reporto-AI https://github.com/BasmaElhoseny01/X-Reporto-AI/commit/ecc5536484a1bdae1c9e67b60e3805aa82448b5c src/language_model/GPT2/gpt2_attention.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageConditionedAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.d_model = config.d_model
        self.num_heads = config.num_heads
        self.head_dim = self.d_model // self.num_heads
        n = config.max_seq_len + 1  # one image token in front of the text
        self.register_buffer("causal_mask", torch.tril(torch.ones((n, n), dtype=torch.bool)).view(1, 1, n, n), persistent=False)
        self.register_buffer("mask_value", torch.tensor(-1e4), persistent=False)
        self.c_attn = nn.Linear(self.d_model, 3 * self.d_model)
        self.u_k = nn.Linear(self.d_model, self.d_model)
        self.u_v = nn.Linear(self.d_model, self.d_model)
        self.c_proj = nn.Linear(self.d_model, self.d_model)
        self.dropout = nn.Dropout(config.dropout)

    @staticmethod
    def attend(query, key, value, causal_mask, mask_value, mask=None, dropout=None):
        # query: (B, h, L, d_k); key, value: (B, h, S, d_k) with S >= L
        scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(query.size(-1))
        L, S = query.size(-2), key.size(-2)
        causal = causal_mask[:, :, :L, :S]
        scores = torch.where(causal, scores, mask_value.to(scores.dtype))  # expect: ATT008
        if mask is not None:
            scores = scores + mask  # additive, (B, 1, 1, S)
        p = F.softmax(scores, dim=-1)
        if dropout is not None:
            p = dropout(p)
        return torch.matmul(p, value), p

    def forward(
        self,
        hidden_states: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        image_hidden_states: Optional[torch.Tensor] = None,  # (B, 1, d_model)
        layer_past: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
        use_cache: bool = False,
    ):
        B = hidden_states.size(0)
        q, k, v = self.c_attn(hidden_states).split(self.d_model, dim=2)
        q = q.view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)
        if image_hidden_states is not None and layer_past is None:
            k_img = self.u_k(image_hidden_states).view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)
            v_img = self.u_v(image_hidden_states).view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)
            k = torch.cat((k_img, k), dim=2)
            v = torch.cat((v_img, v), dim=2)
        if layer_past is not None:
            past_k, past_v = layer_past
            k = torch.cat((past_k, k), dim=-2)
            v = torch.cat((past_v, v), dim=-2)
        present = (k, v) if use_cache else None
        x, _ = self.attend(q, k, v, self.causal_mask, self.mask_value, attention_mask, self.dropout)
        x = x.transpose(1, 2).contiguous().view(B, -1, self.d_model)
        return self.c_proj(x), present
