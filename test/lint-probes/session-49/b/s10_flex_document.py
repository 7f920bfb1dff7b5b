import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def doc_causal_attention(q, k, v, document_id):
    def mask_mod(b, h, q_idx, kv_idx):
        same_doc = document_id[q_idx] == document_id[kv_idx]
        return same_doc & (q_idx >= kv_idx)

    S = q.size(-2)
    block = create_block_mask(mask_mod, None, None, S, S, device=q.device)
    return flex_attention(q, k, v, block_mask=block)
