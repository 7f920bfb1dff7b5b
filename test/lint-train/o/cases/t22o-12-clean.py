# case: t22o-12-clean
# modelled-on: yuanzh89/toy-LLM-and-inference-engine https://github.com/yuanzh89/toy-LLM-and-inference-engine/commit/92a7ae17fca11b7ed3dd04508ba8c3bed23fa264
# label: correct
# class: clean
# pattern: a toy paged-KV inference engine's batched decode step for grouped-query attention: each sequence contributes one query token, appends its new K/V slice to its cache blocks, and the per-sequence histories are concatenated and right-padded with F.pad to the longest one; a boolean padding mask is built True = ignore (attn_mask[i, 0, 0, kv_len:] = True) and handed to F.scaled_dot_product_attention as attn_mask=~attn_mask, with no causal flag
# why: correct: a boolean SDPA attn_mask is True where attention is allowed, so the negation of a True = ignore padding mask is exactly the valid cache positions; a single decode query may see its whole history, so no causal mask is needed; every sequence has at least one cached key, so no row is fully masked
# looks-like: ATT002, ATT008
# source: https://github.com/yuanzh89/toy-LLM-and-inference-engine https://github.com/yuanzh89/toy-LLM-and-inference-engine/commit/92a7ae17fca11b7ed3dd04508ba8c3bed23fa264 layer/gqa_with_kv_cache.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class PagedGQADecode(nn.Module):
    def __init__(self, d_model, num_query_heads, num_kv_heads, layer_id, apply_rope):
        super().__init__()
        self.d_model = d_model
        self.num_query_heads = num_query_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = d_model // num_query_heads
        self.group_size = num_query_heads // num_kv_heads
        self.layer_id = layer_id
        self.apply_rope = apply_rope
        self.q_proj = nn.Linear(d_model, num_query_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    @torch.inference_mode()
    def decode_a_batch(self, sequences, block_manager):
        batch_size = len(sequences)
        x = torch.cat([seq.decode_activations for seq in sequences], dim=0)  # (B, 1, d_model)
        q = self.q_proj(x).view(batch_size, 1, self.num_query_heads, self.head_dim).transpose(1, 2).contiguous()
        k = self.k_proj(x).view(batch_size, 1, self.num_kv_heads, self.head_dim).transpose(1, 2).contiguous()
        v = self.v_proj(x).view(batch_size, 1, self.num_kv_heads, self.head_dim).transpose(1, 2).contiguous()
        offsets = [len(seq.token_ids) - 1 for seq in sequences]
        self.apply_rope(q, self.head_dim, start_pos=offsets)
        self.apply_rope(k, self.head_dim, start_pos=offsets)

        for i, seq in enumerate(sequences):
            seq.append_kv_cache(self.layer_id, k[i : i + 1], v[i : i + 1], block_manager=block_manager)

        kv_lens = [sum(blk.k_cache[self.layer_id].shape[2] for blk in seq.kv_cache_blocks) for seq in sequences]
        max_kv_len = max(kv_lens)
        k_list, v_list = [], []
        for seq in sequences:
            k_seq = torch.cat([blk.k_cache[self.layer_id] for blk in seq.kv_cache_blocks], dim=2)
            v_seq = torch.cat([blk.v_cache[self.layer_id] for blk in seq.kv_cache_blocks], dim=2)
            pad = max_kv_len - k_seq.shape[2]
            if pad > 0:
                k_seq = F.pad(k_seq, (0, 0, 0, pad))
                v_seq = F.pad(v_seq, (0, 0, 0, pad))
            k_list.append(k_seq)
            v_list.append(v_seq)
        k_full = torch.cat(k_list, dim=0)
        v_full = torch.cat(v_list, dim=0)
        if self.group_size > 1:
            k_full = k_full.repeat_interleave(self.group_size, dim=1)
            v_full = v_full.repeat_interleave(self.group_size, dim=1)

        # padding mask: True = ignore this position, (B, 1, 1, max_kv_len)
        attn_mask = torch.zeros(batch_size, 1, 1, max_kv_len, dtype=torch.bool, device=k_full.device)
        for i, kv_len in enumerate(kv_lens):
            attn_mask[i, 0, 0, kv_len:] = True
        o = F.scaled_dot_product_attention(q, k_full, v_full, attn_mask=~attn_mask)
        o = self.o_proj(o.transpose(1, 2).reshape(batch_size, 1, self.d_model))
        for i, seq in enumerate(sequences):
            seq.decode_activations = o[i : i + 1] + x[i : i + 1]
