from typing import Sequence

import torch
import torch.nn.functional as F

from .qwen3 import LayerCache


def tree_keep_mask(sorted_choices) -> torch.Tensor:
    """(nodes, nodes) bool: a node sees the root, its ancestors and itself."""
    tree_len = len(sorted_choices) + 1
    mask = torch.eye(tree_len, tree_len, dtype=torch.bool)
    mask[:, 0] = True
    node_of = {choice: i + 1 for i, choice in enumerate(sorted_choices)}
    for i, choice in enumerate(sorted_choices, start=1):
        for prefix_len in range(1, len(choice)):
            mask[i, node_of[choice[:prefix_len]]] = True
    return mask


def cache_length(cache: Sequence[LayerCache | None]) -> int:
    first = next((c for c in cache if c is not None), None)
    return 0 if first is None else int(first.key.shape[2])


def tree_attention_mask(cache, node_mask: torch.Tensor) -> torch.Tensor:
    past_len = cache_length(cache)
    query_len = node_mask.shape[0]
    if past_len:
        prefix = torch.ones((query_len, past_len), dtype=torch.bool, device=node_mask.device)
        full = torch.cat([prefix, node_mask], dim=-1)
    else:
        full = node_mask
    return full.unsqueeze(0).unsqueeze(0)


def tree_attention(attn, hidden_states, position_ids, layer_cache, attention_mask):
    b, q_len, _ = hidden_states.shape
    q = attn._reshape(attn.q_proj(hidden_states), attn.num_attention_heads)
    k = attn._reshape(attn.k_proj(hidden_states), attn.num_key_value_heads)
    v = attn._reshape(attn.v_proj(hidden_states), attn.num_key_value_heads)
    cos, sin = attn.rotary_emb(position_ids)
    q, k = attn.apply_rotary(q, k, cos, sin)
    if layer_cache is not None:
        k = torch.cat([layer_cache.key, k], dim=2)
        v = torch.cat([layer_cache.value, v], dim=2)
    updated = LayerCache(key=k, value=v)
    if attn.num_queries_per_kv > 1:
        k = k.repeat_interleave(attn.num_queries_per_kv, dim=1)
        v = v.repeat_interleave(attn.num_queries_per_kv, dim=1)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask, dropout_p=0.0, is_causal=False)
    out = out.transpose(1, 2).contiguous().view(b, q_len, attn.num_attention_heads * attn.head_dim)
    return attn.o_proj(out), updated
