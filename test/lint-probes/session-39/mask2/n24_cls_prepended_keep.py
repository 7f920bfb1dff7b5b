import torch
import torch.nn.functional as F


def with_cls(q, k, v, ids, pad_id):
    # k, v include a CLS slot at position 0 that is never padding
    B = ids.size(0)
    keep = torch.cat([torch.ones(B, 1, dtype=torch.bool, device=ids.device), ids != pad_id], dim=1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
