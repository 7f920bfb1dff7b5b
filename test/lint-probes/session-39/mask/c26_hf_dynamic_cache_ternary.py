import torch.nn.functional as F


def sdpa_forward(module, q, k, v, attention_mask, past_key_value, layer_idx):
    # q: (B, H, L, D)
    if past_key_value is not None:
        k, v = past_key_value.update(k, v, layer_idx)
    causal_mask = attention_mask
    if attention_mask is not None:
        causal_mask = causal_mask[:, :, :, : k.shape[-2]]
    is_causal = True if causal_mask is None and q.shape[2] > 1 else False
    return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, is_causal=is_causal)
