import torch.nn.functional as F


def attention(q, k, v, mask=None, causal=False):
    kwargs = {}
    if mask is not None:
        kwargs["attn_mask"] = mask
    else:
        kwargs["is_causal"] = causal
    return F.scaled_dot_product_attention(q, k, v, **kwargs)


def use(q, k, v, keep):
    return attention(q, k, v, causal=True), attention(q, k, v, mask=keep)
