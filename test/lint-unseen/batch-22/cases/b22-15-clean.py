# case: b22-15-clean
# modelled-on: K-RAMYA05/mini-vLLM https://github.com/K-RAMYA05/mini-vLLM/commit/61e95e15b3e6deca1999ddad8dff563118e11520
# label: correct
# class: clean
# pattern: a small paged-attention serving engine's prefill: each sequence's new tokens are written to the paged KV cache first; a sequence with no cached prefix runs F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale) on its own tokens, while a sequence that already has prefix_len cached tokens (prefix caching, or speculative decoding writing at an offset) reads the prefix back, concatenates it before the new keys and values, and gets an additive mask built row by row, mask[row, :prefix_len + row + 1] = 0 on a -inf background, with is_causal=False
# why: correct: without a prefix the query and key lengths are equal, where is_causal=True is the right causal mask; with a prefix the keys are longer than the queries, and the explicit mask is bottom-right aligned, each new query seeing the whole prefix and the new tokens up to itself; is_causal is never combined with the mask, and every row keeps at least one 0 entry
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/K-RAMYA05/mini-vLLM https://github.com/K-RAMYA05/mini-vLLM/commit/61e95e15b3e6deca1999ddad8dff563118e11520 mini_vllm/attention.py
import torch
import torch.nn.functional as F


def attention_prefill(q, k, v, scale):
    """q, k, v: (B, H, T, D), the same T: a fresh sequence with no cached prefix."""
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale)


def attention_prefill_with_prefix(q, k, v, prefix_len, scale):
    """q: (B, H, T, D); k, v: (B, H, prefix_len + T, D), the cached prefix first."""
    _, _, q_len, _ = q.shape
    total_k = k.shape[2]
    mask = torch.full((q_len, total_k), float("-inf"), dtype=q.dtype, device=q.device)
    for row in range(q_len):
        mask[row, : prefix_len + row + 1] = 0
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=False, scale=scale)


def prefill(layer_idx, q_pre, k_pre, v_pre, seq_infos, kv_cache, num_heads, num_kv_heads, scale, write_offset=0):
    """q_pre: (tokens, H, D), k_pre / v_pre: (tokens, H_kv, D), sequences packed one after another."""
    for info in seq_infos:
        s, e = info.token_range
        kv_cache.write_prefill(layer_idx, info.block_table, start_pos=info.start_pos + write_offset, keys=k_pre[s:e], values=v_pre[s:e])

    out = torch.empty_like(q_pre)
    group = num_heads // num_kv_heads
    for info in seq_infos:
        s, e = info.token_range
        qs = q_pre[s:e].transpose(0, 1)  # (H, T, D)
        ks = k_pre[s:e].transpose(0, 1)
        vs = v_pre[s:e].transpose(0, 1)
        if group > 1:
            ks = ks.repeat_interleave(group, dim=0)
            vs = vs.repeat_interleave(group, dim=0)
        prefix_len = info.start_pos + write_offset
        if prefix_len > 0:
            prefix_k, prefix_v = kv_cache.read_tokens(layer_idx, info.block_table, prefix_len)
            prefix_k = prefix_k.transpose(0, 1)
            prefix_v = prefix_v.transpose(0, 1)
            if group > 1:
                prefix_k = prefix_k.repeat_interleave(group, dim=0)
                prefix_v = prefix_v.repeat_interleave(group, dim=0)
            o = attention_prefill_with_prefix(
                qs.unsqueeze(0),
                torch.cat([prefix_k, ks], dim=1).unsqueeze(0),
                torch.cat([prefix_v, vs], dim=1).unsqueeze(0),
                prefix_len=prefix_len,
                scale=scale,
            )
        else:
            o = attention_prefill(qs.unsqueeze(0), ks.unsqueeze(0), vs.unsqueeze(0), scale)
        out[s:e] = o.squeeze(0).transpose(0, 1)
    return out
