# case: t8a-05-mask
# modelled-on: Oneflow-Inc/libai https://github.com/Oneflow-Inc/libai/commit/d0667ddb587701b5079f05c22f444b7e3b152442
# label: buggy
# class: real-bug
# pattern: a Megatron-style parallel BERT's attention (written for OneFlow, whose tensor API mirrors torch; the case uses torch): the scores are computed with a norm factor 1/sqrt(d) further divided by (layer_idx + 1) when query-key layer scaling is on, and the unfused masking path multiplies the scores by the mask, then by (1 - mask), then adds mask * -10000; the model module builds the mask as (outer(keep, keep) <= 0.5), i.e. 1 = masked, and turns layer scaling on
# why: buggy (fixed in PR #61 "fix mask and scale"): multiplying the scores by a mask that is 1 at the masked positions zeroes every kept score, so after the next two lines kept positions are 0 and masked ones -10000 and each row is uniform over its tokens (the fix builds the mask as > 0.5, a keep mask, for which the multiplication is right); and the layer-scaling factor is divided into the scores and never multiplied back before the softmax (Megatron applies the coefficient inside its scale-mask-softmax; the fix adds scores *= coeff), so layer l's logits are scaled by 1/(sqrt(d)(l+1))
# source: https://github.com/Oneflow-Inc/libai https://github.com/Oneflow-Inc/libai/pull/61 libai/layers/attention.py
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
        if apply_query_key_layer_scaling:
            self.norm_factor /= float(layer_idx + 1)
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

        attention_scores = torch.matmul(query, key.transpose(-2, -1)) * self.norm_factor  # expect: ATT004
        if attention_mask is not None:
            attention_scores = torch.mul(attention_scores, attention_mask)  # expect: ATT002
            # masked_fill breaks the static graph here, so mask arithmetically
            attention_scores *= 1 - attention_mask
            attention_scores += attention_mask * -10000.0
        attention_weights = self.dropout(torch.softmax(attention_scores, dim=-1))

        context = torch.matmul(attention_weights, value).transpose(1, 2).reshape(bsz, tgt_len, self.hidden_size)
        return self.dense(context), present
