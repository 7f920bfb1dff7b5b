# case: scale-opt-prescaled-scale-one
# modelled-on: huggingface/transformers https://github.com/huggingface/transformers/pull/38290
# label: correct
# pattern: the fix: q is still pre-multiplied by head_dim ** -0.5 (to match the checkpoints' eager path) and SDPA is told scale=1.0 so it does not scale again
# why: exactly one 1/sqrt(head_dim) reaches the softmax
# looks-like: ATT004, ATT003
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


class OPTAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, hidden_states: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        bsz, tgt_len, _ = hidden_states.size()
        # scaling q by hand is kept for parity with the eager path; SDPA must not scale a second time
        query_states = (self.q_proj(hidden_states) * self.scaling).view(bsz, -1, self.num_heads, self.head_dim).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(bsz, -1, self.num_heads, self.head_dim).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(bsz, -1, self.num_heads, self.head_dim).transpose(1, 2)
        attn_output = F.scaled_dot_product_attention(
            query_states,
            key_states,
            value_states,
            attn_mask=attention_mask,
            dropout_p=self.dropout if self.training else 0.0,
            scale=1.0,
        )
        attn_output = attn_output.transpose(1, 2).reshape(bsz, tgt_len, self.embed_dim)
        return self.out_proj(attn_output)
