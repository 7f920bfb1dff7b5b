# case: mask-hf-bert-extended-additive
# modelled-on: huggingface/transformers https://github.com/huggingface/transformers/issues/542
# label: correct
# pattern: BERT: the tokenizer attention_mask (1 = token) becomes an extended additive mask (1 - mask) * finfo(dtype).min in the model, and the attention layer just adds it to the scaled scores
# why: the additive mask is 0 on tokens and the dtype's most negative value on padding, so it works in fp16 and fp32; scores are divided by sqrt(head size)
# looks-like: ATT002, ATT007
import math
from typing import Optional

import torch
from torch import nn


def get_extended_attention_mask(attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """(B, S) with 1 = attend -> (B, 1, 1, S) additive mask."""
    extended_attention_mask = attention_mask[:, None, None, :].to(dtype=dtype)
    extended_attention_mask = (1.0 - extended_attention_mask) * torch.finfo(dtype).min
    return extended_attention_mask


class BertSelfAttention(nn.Module):
    def __init__(self, hidden_size: int, num_attention_heads: int, dropout: float = 0.1):
        super().__init__()
        if hidden_size % num_attention_heads != 0:
            raise ValueError(f"hidden size {hidden_size} is not a multiple of the number of heads {num_attention_heads}")
        self.num_attention_heads = num_attention_heads
        self.attention_head_size = hidden_size // num_attention_heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(hidden_size, self.all_head_size)
        self.key = nn.Linear(hidden_size, self.all_head_size)
        self.value = nn.Linear(hidden_size, self.all_head_size)
        self.dropout = nn.Dropout(dropout)

    def transpose_for_scores(self, x: torch.Tensor) -> torch.Tensor:
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(new_x_shape).permute(0, 2, 1, 3)  # (B, H, S, hd)

    def forward(self, hidden_states: torch.Tensor, attention_mask: Optional[torch.Tensor] = None):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))

        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            attention_scores = attention_scores + attention_mask  # precomputed extended mask
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        attention_probs = self.dropout(attention_probs)

        context_layer = torch.matmul(attention_probs, value_layer).permute(0, 2, 1, 3).contiguous()
        return context_layer.view(context_layer.size()[:-2] + (self.all_head_size,))


class BertEncoder(nn.Module):
    def __init__(self, layers: nn.ModuleList):
        super().__init__()
        self.layer = layers

    def forward(self, hidden_states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        extended = get_extended_attention_mask(attention_mask, hidden_states.dtype)
        for layer_module in self.layer:
            hidden_states = layer_module(hidden_states, extended)
        return hidden_states
