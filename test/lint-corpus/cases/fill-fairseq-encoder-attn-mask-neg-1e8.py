# case: fill-fairseq-encoder-attn-mask-neg-1e8
# modelled-on: facebookresearch/fairseq https://github.com/facebookresearch/fairseq/issues/3575
# label: buggy
# pattern: the encoder layer converts a 0/1 attn_mask into an additive mask in place with masked_fill(attn_mask.to(torch.bool), -1e8); the mask has the activations' dtype, which is float16 when training with --fp16
# why: -1e8 does not fit in float16, so the layer fails with "value cannot be converted to type at::Half without overflow: -1e+08" as soon as an encoder attn_mask is used in fp16
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class TransformerEncoderLayer(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, ffn_dim: int, dropout: float = 0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout)
        self.self_attn_layer_norm = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, embed_dim)
        self.final_layer_norm = nn.LayerNorm(embed_dim)
        self.dropout = dropout

    def forward(self, x: Tensor, encoder_padding_mask: Optional[Tensor], attn_mask: Optional[Tensor] = None) -> Tensor:
        """x: (T, B, C) in the training dtype (half with --fp16); attn_mask: (T, T) with 1 = do not attend."""
        if attn_mask is not None:
            attn_mask = attn_mask.to(x.dtype)
            # anything in original attn_mask = 1 becomes -1e8, anything = 0 stays 0
            attn_mask = attn_mask.masked_fill(attn_mask.to(torch.bool), -1e8)  # expect: ATT007
        residual = x
        x, _ = self.self_attn(query=x, key=x, value=x, key_padding_mask=encoder_padding_mask, need_weights=False, attn_mask=attn_mask)
        x = F.dropout(x, p=self.dropout, training=self.training)
        x = self.self_attn_layer_norm(residual + x)
        residual = x
        x = self.fc2(F.relu(self.fc1(x)))
        x = F.dropout(x, p=self.dropout, training=self.training)
        return self.final_layer_norm(residual + x)
