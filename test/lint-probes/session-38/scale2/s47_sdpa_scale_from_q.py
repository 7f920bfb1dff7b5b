import math
import torch
from flash_attn import flash_attn_varlen_func


def varlen_attention(q, k, v, cu_seqlens, max_seqlen):
    # q, k, v: (total_tokens, nheads, headdim)
    softmax_scale = 1.0 / math.sqrt(q.shape[-1])
    return flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen,
                                  softmax_scale=softmax_scale, causal=True)
