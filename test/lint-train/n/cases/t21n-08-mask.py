# case: t21n-08-mask
# modelled-on: DongHyun99/Masked-Multi-Head-Self-Attention https://github.com/DongHyun99/Masked-Multi-Head-Self-Attention/commit/9c5413e934f5ba7c957afa3511c508e09e57f938
# label: correct
# class: fixed
# pattern: the masked ViT self-attention one commit later: the SDPA path with the inverted mask is gone; the PyTorch path zeroes masked tokens, projects with separate query/key/value layers, splits heads with an HF-style transpose_for_scores, divides q @ k^T by sqrt(head_size), expands the [batch, seq] valid-token mask (True = valid) to [B, H, N, N] and fills with masked_fill(~extended_mask, -1e9), softmaxes over the last axis, applies an optional head mask to the probabilities, and projects back
# why: correct: ~mask is True at the masked (padding) tokens, which is what masked_fill fills; the head mask multiplies whole heads of an already normalised distribution (HF's head pruning), not positions; the scale is per head; -1e9 is applied in float32 (no AMP in the module)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/DongHyun99/Masked-Multi-Head-Self-Attention https://github.com/DongHyun99/Masked-Multi-Head-Self-Attention/commit/9c5413e934f5ba7c957afa3511c508e09e57f938 masked_vit_attention.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedViTAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        if config.hidden_size % config.num_attention_heads != 0:
            raise ValueError("hidden size must be a multiple of the number of heads")
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)
        self.output_dropout = nn.Dropout(config.hidden_dropout_prob)
        self.scale = math.sqrt(self.attention_head_size)

    def transpose_for_scores(self, x):
        x = x.view(x.size()[:-1] + (self.num_attention_heads, self.attention_head_size))
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states: torch.Tensor, attention_mask: Optional[torch.Tensor] = None,
                head_mask: Optional[torch.Tensor] = None):
        """attention_mask: [batch_size, seq_length] with True for valid tokens."""
        batch_size, seq_length = hidden_states.shape[:2]
        if attention_mask is None:
            attention_mask = torch.ones(batch_size, seq_length, dtype=torch.bool, device=hidden_states.device)
        elif attention_mask.dtype != torch.bool:
            attention_mask = attention_mask.bool()

        masked = hidden_states.clone()
        masked[~attention_mask] = 0
        query_layer = self.transpose_for_scores(self.query(masked))
        key_layer = self.transpose_for_scores(self.key(masked))
        value_layer = self.transpose_for_scores(self.value(masked))

        scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        scores = scores / self.scale
        extended = attention_mask.unsqueeze(1).unsqueeze(2)  # [B, 1, 1, N]
        extended = extended.expand(batch_size, self.num_attention_heads, seq_length, seq_length)
        scores = scores.masked_fill(~extended, -1e9)

        probs = self.dropout(F.softmax(scores, dim=-1))
        if head_mask is not None:
            probs = probs * head_mask

        context = torch.matmul(probs, value_layer).permute(0, 2, 1, 3).contiguous()
        context = context.view(context.size()[:-2] + (self.all_head_size,))
        out = self.output_dropout(self.dense(context)) + hidden_states
        return torch.where(attention_mask.unsqueeze(-1), out, hidden_states)
