import torch
import torch.nn.functional as F


def attend(q, k, v, input_ids, pad_id):
    pad = input_ids.eq(pad_id)
    keep = ~pad
    keep = keep[:, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


def attend_again(q, k, v, input_ids, pad_id):
    keep = input_ids.ne(pad_id)
    drop = keep.logical_not()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=~drop[:, None, None, :])
