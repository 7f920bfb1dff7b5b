# case: causal-gptq-fused-attn-prefill-only
# modelled-on: qwopqwop200/GPTQ-for-LLaMa https://github.com/qwopqwop200/GPTQ-for-LLaMa/commit/4f0afa77214f76546a6f8af3f087a4583de0d2ef
# label: correct
# pattern: a fused (quantised) Llama attention replaces the HF one: one projection split into q/k/v, rotary embedding over the cached length, keys and values joined with the tuple cache past_key_value[0]/[1] by torch.cat, the tuple rebuilt as (k, v) and returned for the next step (the name is reassigned after the join), and SDPA with is_causal=is_causal where the flag is set before the join from `past_key_value is None`
# why: the flag is True only on the prefill call (no cache: as many keys as queries, so the top-left causal mask is the right one) and False on every cached step, where HF generation feeds one new token whose query may see every cached key; the later reassignment of past_key_value does not change the flag already computed (the fix for the missing causal mask at prefill)
# looks-like: ATT008
import torch
import torch.nn as nn
from torch.nn import functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, position_ids):
    cos = cos[position_ids].unsqueeze(1)
    sin = sin[position_ids].unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


class FusedLlamaAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, qkv_proj, o_proj, rotary_emb):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.qkv_proj = qkv_proj
        self.o_proj = o_proj
        self.rotary_emb = rotary_emb

    def forward(self, hidden_states, past_key_value=None, attention_mask=None, position_ids=None, output_attentions=False, use_cache=False):
        bsz, q_len, _ = hidden_states.size()

        qkv = self.qkv_proj(hidden_states)
        query_states, key_states, value_states = torch.split(qkv, self.hidden_size, dim=2)
        query_states = query_states.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        key_states = key_states.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        value_states = value_states.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)

        kv_seq_len = key_states.shape[-2]
        if past_key_value is not None:
            kv_seq_len += past_key_value[0].shape[-2]
        cos, sin = self.rotary_emb(value_states, seq_len=kv_seq_len)
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin, position_ids)

        # causal only at prefill: a cached step's query is the newest token
        is_causal = past_key_value is None
        if past_key_value is not None:
            key_states = torch.cat([past_key_value[0], key_states], dim=2)
            value_states = torch.cat([past_key_value[1], value_states], dim=2)

        past_key_value = (key_states, value_states) if use_cache else None

        with torch.backends.cuda.sdp_kernel(enable_math=False):
            attn_output = F.scaled_dot_product_attention(query_states, key_states, value_states, is_causal=is_causal)

        attn_output = attn_output.transpose(1, 2).reshape(bsz, q_len, self.hidden_size)
        return self.o_proj(attn_output), None, past_key_value
