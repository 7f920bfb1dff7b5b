# case: causal-dia-decoder-prefill-both
# modelled-on: nari-labs/dia https://github.com/nari-labs/dia/pull/170
# label: buggy
# pattern: a TTS decoder's self-attention receives a prepared causal+padding mask from the decoder state and also sets is_causal during prefill
# why: with an explicit attn_mask SDPA raises "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True" on the backends that check; the mask already encodes causality
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class DecoderInferenceState:
    dec_positions: torch.Tensor
    causal_attn_mask: torch.Tensor  # (B, 1, T, T) bool, True = attend (causal & padding)


class Attention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int, head_dim: int, is_cross_attn: bool = False):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.is_cross_attn = is_cross_attn
        self.num_gqa_groups = num_heads // num_kv_heads
        self.q_proj = nn.Linear(embed_dim, num_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, num_kv_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, num_kv_heads * head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * head_dim, embed_dim, bias=False)

    def forward(self, Xq: torch.Tensor, Xkv: torch.Tensor, attn_mask: Optional[torch.Tensor] = None, prefill: bool = False) -> torch.Tensor:
        B, T, _ = Xq.shape
        q = self.q_proj(Xq).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(Xkv).view(B, -1, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(Xkv).view(B, -1, self.num_kv_heads, self.head_dim).transpose(1, 2)
        k = k.repeat_interleave(self.num_gqa_groups, dim=1)
        v = v.repeat_interleave(self.num_gqa_groups, dim=1)
        attn_output = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=attn_mask,
            scale=1.0 / self.head_dim ** 0.5,
            is_causal=prefill,  # expect: ATT008
        )
        return self.o_proj(attn_output.transpose(1, 2).reshape(B, T, -1))


class DecoderLayer(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int, head_dim: int):
        super().__init__()
        self.self_attention = Attention(embed_dim, num_heads, num_kv_heads, head_dim)
        self.pre_sa_norm = nn.LayerNorm(embed_dim)

    def forward(self, x: torch.Tensor, state: DecoderInferenceState, prefill: bool = False) -> torch.Tensor:
        h = self.pre_sa_norm(x)
        return x + self.self_attention(h, h, attn_mask=state.causal_attn_mask, prefill=prefill)


def prefill(layers: nn.ModuleList, x: torch.Tensor, state: DecoderInferenceState) -> torch.Tensor:
    for layer in layers:
        x = layer(x, state, prefill=True)
    return x
