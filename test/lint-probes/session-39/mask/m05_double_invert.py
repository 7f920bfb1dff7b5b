import torch
import torch.nn.functional as F


def padding_positions(tokens, pad_id):
    """Return a (B, S) bool tensor, True at padding."""
    keep = tokens.ne(pad_id)
    return ~keep


def attend(q, k, v, tokens, pad_id):
    # q, k, v: (B, H, S, D)
    pad = padding_positions(tokens, pad_id)  # True at padding
    allowed = ~pad  # True at real tokens
    return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed[:, None, None, :])
