# case: mask-hf-sdpa-additive-float
# modelled-on: huggingface/transformers https://github.com/huggingface/transformers/blob/main/src/transformers/integrations/sdpa_attention.py
# label: correct
# pattern: HF's SDPA integration passes a prepared 4-D mask (additive float with finfo.min, or bool with True = attend) as attn_mask, and sets is_causal only when there is no mask and more than one query
# why: an additive float mask is added after scaling, which is right; is_causal is never combined with an explicit mask and is off for single-token decoding
# looks-like: ATT002, ATT008
from typing import Optional

import torch


def repeat_kv(hidden_states: torch.Tensor, n_rep: int) -> torch.Tensor:
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def sdpa_attention_forward(
    module: torch.nn.Module,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    attention_mask: Optional[torch.Tensor],
    dropout: float = 0.0,
    scaling: Optional[float] = None,
    is_causal: Optional[bool] = None,
):
    # query: (B, H, L, hd); key/value: (B, H_kv, S, hd)
    if hasattr(module, "num_key_value_groups"):
        key = repeat_kv(key, module.num_key_value_groups)
        value = repeat_kv(value, module.num_key_value_groups)

    causal_mask = attention_mask
    if attention_mask is not None and causal_mask.ndim == 4:
        causal_mask = causal_mask[:, :, :, : key.shape[-2]]

    # The model builds a mask whenever there is a cache or padding, so causal_mask is None only when the
    # query and key lengths are equal and nothing is padded.
    if is_causal is None:
        is_causal = query.shape[2] > 1 and causal_mask is None and getattr(module, "is_causal", True)

    attn_output = torch.nn.functional.scaled_dot_product_attention(
        query,
        key,
        value,
        attn_mask=causal_mask,
        dropout_p=dropout,
        scale=scaling,
        is_causal=is_causal,
    )
    return attn_output.transpose(1, 2).contiguous(), None
