# case: scale-megatron-flash-softmax-scale-ignored
# modelled-on: NVIDIA/Megatron-LM https://github.com/NVIDIA/Megatron-LM/pull/3698
# label: buggy
# pattern: an MLA-style attention computes softmax_scale in __init__ from a YaRN mscale and the q head dim (which differs from the value head dim), then calls flash_attn_func on (B, S, H, D) tensors without softmax_scale=
# why: flash_attn_func falls back to 1/sqrt(q.shape[-1]) and drops the mscale² factor; the PR makes the configured scale reach the kernel
import math

import torch
import torch.nn as nn
from flash_attn import flash_attn_func


def yarn_get_mscale(scale: float = 1.0, mscale: float = 1.0) -> float:
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


class MultiLatentAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.q_head_dim = config.qk_nope_head_dim + config.qk_rope_head_dim
        self.v_head_dim = config.v_head_dim
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.q_head_dim, bias=False)
        self.kv_proj = nn.Linear(config.hidden_size, self.num_heads * (self.q_head_dim + self.v_head_dim), bias=False)
        self.o_proj = nn.Linear(self.num_heads * self.v_head_dim, config.hidden_size, bias=False)
        mscale = yarn_get_mscale(config.rotary_scaling_factor, config.mscale_all_dim)
        self.softmax_scale = mscale * mscale / math.sqrt(self.q_head_dim)

    def forward(self, hidden_states):
        B, S, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(B, S, self.num_heads, self.q_head_dim)
        kv = self.kv_proj(hidden_states).view(B, S, self.num_heads, self.q_head_dim + self.v_head_dim)
        k, v = torch.split(kv, [self.q_head_dim, self.v_head_dim], dim=-1)
        out = flash_attn_func(q, k, v, dropout_p=0.0, causal=True)  # expect: ATT004
        return self.o_proj(out.reshape(B, S, self.num_heads * self.v_head_dim))
