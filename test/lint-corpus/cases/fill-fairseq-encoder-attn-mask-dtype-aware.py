# case: fill-fairseq-encoder-attn-mask-dtype-aware
# modelled-on: facebookresearch/fairseq https://github.com/facebookresearch/fairseq/blob/main/fairseq/modules/transformer_layer.py
# label: correct
# pattern: the later fairseq code: the additive value is -1e8 for float32 activations and -1e4 otherwise, chosen from x.dtype
# why: -1e4 is representable in float16 and is still negative enough to zero the masked weights after the softmax
# looks-like: ATT007, ATT002
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class TransformerEncoderLayerBase(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout)
        self.self_attn_layer_norm = nn.LayerNorm(embed_dim)

    def forward(self, x: Tensor, encoder_padding_mask: Optional[Tensor], attn_mask: Optional[Tensor] = None) -> Tensor:
        if attn_mask is not None:
            attn_mask = attn_mask.masked_fill(attn_mask.to(torch.bool), -1e8 if x.dtype == torch.float32 else -1e4)
        residual = x
        x, _ = self.self_attn(query=x, key=x, value=x, key_padding_mask=encoder_padding_mask, need_weights=False, attn_mask=attn_mask)
        return self.self_attn_layer_norm(residual + x)
