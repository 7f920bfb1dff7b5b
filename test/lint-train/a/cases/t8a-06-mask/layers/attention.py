# case: t8a-06-mask
# modelled-on: Oneflow-Inc/libai https://github.com/Oneflow-Inc/libai/commit/d0667ddb587701b5079f05c22f444b7e3b152442
# label: correct
# class: fixed
# pattern: the same Megatron-style BERT attention after the fix (written for OneFlow; the case uses torch): the layer-scaling coefficient divided into the norm factor is multiplied back into the scores before masking, and the mask built by the model module is now a keep mask (> 0.5), used as scores * mask - 10000 * (1 - mask)
# why: correct: with a keep mask the multiplication zeroes the masked scores and the subtraction sends them to -10000 while kept scores are unchanged; the net scale of the logits is 1/sqrt(d) because coeff * norm_factor = 1/sqrt(d)
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/Oneflow-Inc/libai https://github.com/Oneflow-Inc/libai/commit/d0667ddb587701b5079f05c22f444b7e3b152442 libai/layers/attention.py
import math

import torch
import torch.nn as nn


class ParallelSelfAttention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, attention_dropout: float = 0.0, apply_query_key_layer_scaling: bool = False, *, layer_idx: int = 0):
        super().__init__()
        assert hidden_size % num_heads == 0
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_size = hidden_size // num_heads
        self.norm_factor = 1.0 / math.sqrt(float(self.head_size))
        self.coeff = None
        if apply_query_key_layer_scaling:
            self.coeff = layer_idx + 1
            self.norm_factor /= self.coeff
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.dropout = nn.Dropout(attention_dropout)

    def forward(self, hidden_states, attention_mask=None, past_key_value=None, use_cache=False):
        """attention_mask: (bsz, 1, tgt_len, src_len), the padding (and causal) mask from the model."""
        bsz, tgt_len = hidden_states.shape[:2]
        qkv = self.query_key_value(hidden_states).view(bsz, -1, self.num_heads, 3 * self.head_size).permute(0, 2, 1, 3)
        query, key, value = torch.chunk(qkv, chunks=3, dim=-1)
        if past_key_value is not None:
            key = torch.cat((past_key_value[0].type_as(key), key), dim=2)
            value = torch.cat((past_key_value[1].type_as(value), value), dim=2)
        present = (key, value) if use_cache else None

        attention_scores = torch.matmul(query, key.transpose(-2, -1)) * self.norm_factor
        if attention_mask is not None:
            if self.coeff is not None:
                attention_scores *= self.coeff
            attention_scores = torch.mul(attention_scores, attention_mask)
            attention_scores = attention_scores - 10000.0 * (1 - attention_mask)
        attention_weights = self.dropout(torch.softmax(attention_scores, dim=-1))

        context = torch.matmul(attention_weights, value).transpose(1, 2).reshape(bsz, tgt_len, self.hidden_size)
        return self.dense(context), present
