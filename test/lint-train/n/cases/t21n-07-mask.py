# case: t21n-07-mask
# modelled-on: DongHyun99/Masked-Multi-Head-Self-Attention https://github.com/DongHyun99/Masked-Multi-Head-Self-Attention/commit/7eed06e2d19738df4dbb35f16acd7ff679918dfe
# label: buggy
# class: real-bug
# pattern: a masked ViT self-attention (HF-style config; the token mask is [batch, seq] with True for valid tokens, converted to bool, all True when absent): a fused qkv projection permuted to [3, B, H, N, D]; for long sequences on GPU it builds attn_mask = mask.unsqueeze(1).unsqueeze(2).expand(B, H, N, N), inverts it with ~ "because Flash attention uses True for masked positions", and hands it to F.scaled_dot_product_attention(attn_mask=..., is_causal=False); the fallback path computes q @ k^T / sqrt(head_size) and masks with masked_fill(~extended_mask, -1e9); masked tokens keep their input values at the end
# why: buggy: SDPA's boolean attn_mask means True = take part in attention, so ~mask lets every query attend only to the padding (masked) tokens and blocks all the valid ones (rows of a fully valid image become all False and turn into NaN); the comment states the opposite convention. The fallback path is right (~mask selects the positions to fill). The next commit removed the SDPA path and kept only the masked_fill form (the fixed case)
# source: https://github.com/DongHyun99/Masked-Multi-Head-Self-Attention https://github.com/DongHyun99/Masked-Multi-Head-Self-Attention/commit/7eed06e2d19738df4dbb35f16acd7ff679918dfe masked_vit_attention.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.qkv = nn.Linear(config.hidden_size, 3 * self.all_head_size)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)
        self.output_dropout = nn.Dropout(config.hidden_dropout_prob)
        self.scale = math.sqrt(self.attention_head_size)
        self.long_seq = 128

    def forward(self, hidden_states: torch.Tensor, attention_mask: Optional[torch.Tensor] = None):
        """attention_mask: [batch_size, seq_length] with True for valid tokens."""
        batch_size, seq_length, _ = hidden_states.shape
        if attention_mask is None:
            attention_mask = torch.ones(batch_size, seq_length, dtype=torch.bool, device=hidden_states.device)
        elif attention_mask.dtype != torch.bool:
            attention_mask = attention_mask.bool()

        x = hidden_states * attention_mask.unsqueeze(-1).float()
        qkv = self.qkv(x).view(batch_size, seq_length, 3, self.num_attention_heads, self.attention_head_size)
        query, key, value = qkv.permute(2, 0, 3, 1, 4)  # each [B, H, N, D]

        if seq_length >= self.long_seq and hidden_states.is_cuda:
            attn_mask = attention_mask.unsqueeze(1).unsqueeze(2)  # [B, 1, 1, N]
            attn_mask = attn_mask.expand(batch_size, self.num_attention_heads, seq_length, seq_length)
            attn_mask = ~attn_mask  # Flash attention uses True for masked positions
            context = F.scaled_dot_product_attention(
                query, key, value,
                attn_mask=attn_mask,  # expect: ATT002
                dropout_p=self.dropout.p if self.training else 0.0,
                is_causal=False,
            )
        else:
            context = self._standard(query, key, value, attention_mask)

        context = context.transpose(1, 2).contiguous().view(batch_size, seq_length, self.all_head_size)
        out = self.output_dropout(self.dense(context)) + hidden_states
        return torch.where(attention_mask.unsqueeze(-1), out, hidden_states)

    def _standard(self, query, key, value, attention_mask):
        batch_size, seq_length = query.shape[0], query.shape[2]
        scores = torch.matmul(query, key.transpose(-1, -2)) / self.scale
        extended = attention_mask.unsqueeze(1).unsqueeze(2).expand(batch_size, self.num_attention_heads, seq_length, seq_length)
        scores = scores.masked_fill(~extended, -1e9)
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(query.dtype)
        return torch.matmul(self.dropout(probs), value)
