# case: causal-litgpt-sdpa-mask-or-causal
# modelled-on: Lightning-AI/litgpt https://github.com/Lightning-AI/litgpt/blob/main/litgpt/model.py
# label: correct
# pattern: GPT model with a preallocated KV cache: during generation the model slices a precomputed boolean causal mask (True = attend) by input_pos and passes it as attn_mask; without a cache it passes mask=None and lets SDPA build the causal mask; the scale is 1/sqrt(attention_scores_scalar or head_size) and passed explicitly
# why: is_causal is only True when no mask is given (training/prefill without cache, query and key lengths equal); on the cached path the mask rows come from input_pos, so the alignment is correct and is_causal is False
# looks-like: ATT008, ATT002, ATT004
import math
from typing import Optional

import torch
import torch.nn as nn


def build_mask_cache(max_seq_length: int, device: Optional[torch.device] = None) -> torch.Tensor:
    ones = torch.ones((max_seq_length, max_seq_length), device=device, dtype=torch.bool)
    return torch.tril(ones).unsqueeze(0).unsqueeze(0)


class KVCache(nn.Module):
    def __init__(self, k_shape, v_shape, device=None, dtype=None) -> None:
        super().__init__()
        self.register_buffer("k", torch.zeros(k_shape, device=device, dtype=dtype), persistent=False)
        self.register_buffer("v", torch.zeros(v_shape, device=device, dtype=dtype), persistent=False)

    def forward(self, input_pos: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
        self.k = self.k.to(k.dtype)
        self.v = self.v.to(v.dtype)
        k = self.k.index_copy_(2, input_pos, k)
        v = self.v.index_copy_(2, input_pos, v)
        return k, v


class CausalSelfAttention(nn.Module):
    def __init__(self, config, block_idx: int) -> None:
        super().__init__()
        shape = (config.n_head + 2 * config.n_query_groups) * config.head_size
        self.attn = nn.Linear(config.n_embd, shape, bias=config.bias)
        self.proj = nn.Linear(config.head_size * config.n_head, config.n_embd, bias=config.bias)
        self.kv_cache: Optional[KVCache] = None
        self.block_idx = block_idx
        self.config = config

    def forward(
        self,
        x: torch.Tensor,
        cos: torch.Tensor,
        sin: torch.Tensor,
        mask: Optional[torch.Tensor] = None,
        input_pos: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        B, T, C = x.size()

        qkv = self.attn(x)

        q_per_kv = self.config.n_head // self.config.n_query_groups
        total_qkv = q_per_kv + 2
        qkv = qkv.view(B, T, self.config.n_query_groups, total_qkv, self.config.head_size)
        qkv = qkv.permute(0, 2, 3, 1, 4)

        q, k, v = qkv.split((q_per_kv, 1, 1), dim=2)

        if self.config.n_query_groups != self.config.n_head and (input_pos is None or self.config.n_query_groups != 1):
            k = k.expand(B, self.config.n_query_groups, q_per_kv, T, self.config.head_size)
            v = v.expand(B, self.config.n_query_groups, q_per_kv, T, self.config.head_size)

        q = q.reshape(B, -1, T, self.config.head_size)
        k = k.reshape(B, -1, T, self.config.head_size)
        v = v.reshape(B, -1, T, self.config.head_size)

        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)

        if input_pos is not None:
            if not isinstance(self.kv_cache, KVCache):
                raise TypeError("You need to call `gpt.set_kv_cache()`")
            k, v = self.kv_cache(input_pos, k, v)

        y = self.scaled_dot_product_attention(q, k, v, mask)

        y = y.reshape(B, T, self.config.head_size * self.config.n_head)
        return self.proj(y)

    def scaled_dot_product_attention(
        self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: Optional[torch.Tensor] = None
    ) -> torch.Tensor:
        scale = 1.0 / math.sqrt(self.config.attention_scores_scalar or self.config.head_size)
        y = torch.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=0.0, scale=scale, is_causal=mask is None
        )
        return y.transpose(1, 2)


class GPT(nn.Module):
    def __init__(self, config) -> None:
        super().__init__()
        self.config = config
        self.lm_head = nn.Linear(config.n_embd, config.padded_vocab_size, bias=config.lm_head_bias)
        self.transformer = nn.ModuleDict(
            dict(
                wte=nn.Embedding(config.padded_vocab_size, config.n_embd),
                h=nn.ModuleList(CausalSelfAttention(config, i) for i in range(config.n_layer)),
            )
        )
        self.mask_cache: Optional[torch.Tensor] = None
        self.max_seq_length = config.block_size

    def set_kv_cache(self, batch_size: int, device=None, dtype=None) -> None:
        heads = 1 if self.config.n_query_groups == 1 else self.config.n_head
        shape = (batch_size, heads, self.max_seq_length, self.config.head_size)
        for block in self.transformer.h:
            block.kv_cache = KVCache(shape, shape, device=device, dtype=dtype)
        if self.mask_cache is None or self.mask_cache.size(3) != self.max_seq_length:
            self.mask_cache = build_mask_cache(self.max_seq_length, device)

    def forward(self, idx: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                input_pos: Optional[torch.Tensor] = None) -> torch.Tensor:
        if input_pos is not None:  # use the kv cache
            if self.mask_cache is None:
                raise TypeError("You need to call `gpt.set_kv_cache()`")
            mask = self.mask_cache.index_select(2, input_pos)
        else:
            mask = None

        x = self.transformer.wte(idx)
        for block in self.transformer.h:
            x = x + block(x, cos, sin, mask, input_pos)
        return self.lm_head(x)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    head_size = x.size(-1)
    x1 = x[..., : head_size // 2]
    x2 = x[..., head_size // 2 :]
    rotated = torch.cat((-x2, x1), dim=-1)
    roped = (x * cos) + (rotated * sin)
    return roped.to(dtype=x.dtype)
