import torch
import torch.nn.functional as F

from masks import decode_mask


def attention_with_cache(q, k, v, past_k, past_v):
    k = torch.cat((past_k, k), dim=-2)
    v = torch.cat((past_v, v), dim=-2)
    mask = decode_mask(q.size(-2), k.size(-2), q.device)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask), k, v
