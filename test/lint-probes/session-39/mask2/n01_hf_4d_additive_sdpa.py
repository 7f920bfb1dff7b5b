import torch
import torch.nn.functional as F
from transformers.modeling_attn_mask_utils import _prepare_4d_attention_mask


def encode(q, k, v, attention_mask, dtype):
    # attention_mask: (B, S) 1 = token; expanded to an additive (B, 1, S, S) float mask
    attention_mask = _prepare_4d_attention_mask(attention_mask, dtype)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask)
