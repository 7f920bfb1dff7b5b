import torch
import torch.nn.functional as F

try:
    from flash_attn import flash_attn_func
except ImportError:  # flash-attn is optional
    flash_attn_func = None


def attention(q, k, v, attn_mask=None, dropout_p=0.0, causal=False, scale=None):
    """Flash attention when there is no mask, SDPA otherwise.

    q, k, v: (batch, seqlen, nheads, headdim) for flash-attn, (batch, nheads, seqlen, headdim) for SDPA.
    attn_mask is only honoured by SDPA.
    """
    if flash_attn_func is not None and q.is_cuda and attn_mask is None:
        return flash_attn_func(q, k, v, dropout_p=dropout_p if q.requires_grad else 0.0, causal=causal, softmax_scale=scale)
    return F.scaled_dot_product_attention(
        q,
        k,
        v,
        attn_mask=attn_mask,
        dropout_p=dropout_p if q.requires_grad else 0.0,
        is_causal=causal,
        scale=scale,
    )


def attention_with_reshape(q, k, v, attn_mask=None, dropout_p=0.0, causal=False, scale=None):
    """SDPA on (batch, nheads, seqlen, headdim); SDPA picks flash, mem-efficient or math itself."""
    return F.scaled_dot_product_attention(
        q,
        k,
        v,
        attn_mask=attn_mask,
        dropout_p=dropout_p if q.requires_grad else 0.0,
        is_causal=causal,
        scale=scale,
    )
