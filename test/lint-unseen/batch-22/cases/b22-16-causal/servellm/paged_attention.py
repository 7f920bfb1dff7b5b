# case: b22-16-causal
# modelled-on: Akashsinghbhadoriya/mini-vllm https://github.com/Akashsinghbhadoriya/mini-vllm/commit/571079ced90282af5dd7d87266137a31d40bd31d
# label: buggy
# class: real-bug
# pattern: a small serving engine wraps a Llama model's attention so it can read past keys and values either as a (k, v) tensor tuple passed in the block_table argument or from paged blocks, concatenates them before the new keys, and calls F.scaled_dot_product_attention(q, k, v, is_causal=(block_table is None)); the model runner (runner.py) prefills prompts whose prefix is already cached by passing the cached (k, v) tuples with the whole uncached suffix, several tokens long, and position ids starting at the prefix length
# why: buggy: whenever cached keys come in, is_causal is False and no mask is passed, so for a multi-token suffix every new query also attends to the suffix tokens after it; a causal language model's prefill must not see the future, and the positions the runner assigns (prefix_len + i) show these are consecutive prompt tokens; a single decode token would be fine, but the prefix-cache prefill sends the whole suffix at once (it needs a bottom-right causal mask of suffix_len by prefix_len + suffix_len)
# source: https://github.com/Akashsinghbhadoriya/mini-vllm https://github.com/Akashsinghbhadoriya/mini-vllm/commit/571079ced90282af5dd7d87266137a31d40bd31d attention/paged_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class PagedAttention(nn.Module):
    def __init__(self, hf_attn, rotary_emb, apply_rotary, config):
        super().__init__()
        self.q_proj = hf_attn.q_proj
        self.k_proj = hf_attn.k_proj
        self.v_proj = hf_attn.v_proj
        self.o_proj = hf_attn.o_proj
        self.rotary_emb = rotary_emb
        self.apply_rotary = apply_rotary
        self.num_attention_heads = config.num_attention_heads
        self.num_key_value_heads = config.num_key_value_heads
        self.head_dim = config.head_dim

    def forward(self, hidden_states, position_ids, block_table=None, kv_seq_len=0):
        B, S, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(B, S, self.num_attention_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(B, S, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(B, S, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        cos, sin = self.rotary_emb(v, position_ids)
        q, k = self.apply_rotary(q, k, cos, sin)

        if isinstance(block_table, tuple):
            # tensor KV cache: (past_k, past_v)
            past_k, past_v = block_table
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        elif block_table is not None and kv_seq_len > 0:
            # paged decode: gather the past from the blocks, then store the new token
            past_k = self._gather(block_table, kv_seq_len, is_key=True)
            past_v = self._gather(block_table, kv_seq_len, is_key=False)
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        new_k, new_v = k, v

        if self.num_key_value_heads != self.num_attention_heads:
            repeat = self.num_attention_heads // self.num_key_value_heads
            k = k.repeat_interleave(repeat, dim=1)
            v = v.repeat_interleave(repeat, dim=1)

        out = F.scaled_dot_product_attention(q, k, v, is_causal=(block_table is None))  # expect: ATT008
        out = out.transpose(1, 2).contiguous().view(B, S, -1)
        return self.o_proj(out), (new_k, new_v)

    def _gather(self, block_table, kv_seq_len, is_key):
        chunks, remaining = [], kv_seq_len
        for block in block_table.blocks:
            if remaining <= 0:
                break
            cache = block.k_cache if is_key else block.v_cache
            n = min(block.used_tokens, remaining)
            chunks.append(cache[:, :, :n, :])
            remaining -= n
        return torch.cat(chunks, dim=2)
