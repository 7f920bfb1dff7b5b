# case: t35bb-05-clean
# modelled-on: mosaicml/diffusion https://github.com/mosaicml/diffusion/commit/ef74f2b3384db1fd1986d58348ca537511b77076
# label: correct
# class: clean
# pattern: an MMDiT (joint image/text diffusion transformer) block: each modality gets its own adaptive-LayerNorm pre-attention block with a fused qkv Linear and LayerNorms on q and k, the two streams' q, k, v are concatenated along the sequence and passed to F.scaled_dot_product_attention with a boolean attn_mask and the default scale, and the output is split back; the mask is built in another module from the per-stream padding masks, concatenated, turned into a pair mask `m[:, :, None] & m[:, None, :]`, OR-ed with the identity and given a heads axis
# why: correct: SDPA's boolean attn_mask is True where a query may attend, and the pair mask is True where both tokens are real; the identity keeps the diagonal of padded query rows, so no row is all False (an all-False row would give NaN in SDPA) and their outputs are simply unused; SDPA applies 1/sqrt(head_dim) itself, and q and k also pass through LayerNorms; the "scale" in this file is the adaptive LayerNorm's modulation, not an attention scale
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/mosaicml/diffusion https://github.com/mosaicml/diffusion/commit/ef74f2b3384db1fd1986d58348ca537511b77076 diffusion/models/transformer.py
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def modulate(x: torch.Tensor, shift: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    return x * (1.0 + scale) + shift


class AdaptiveLayerNorm(nn.Module):
    """LayerNorm whose output is scaled and shifted by an MLP of the timestep embedding."""

    def __init__(self, num_features: int):
        super().__init__()
        self.adaLN_mlp_linear = nn.Linear(num_features, 2 * num_features, bias=True)
        nn.init.zeros_(self.adaLN_mlp_linear.weight)
        nn.init.zeros_(self.adaLN_mlp_linear.bias)
        self.adaLN_mlp = nn.Sequential(nn.SiLU(), self.adaLN_mlp_linear)
        self.layernorm = nn.LayerNorm(num_features, elementwise_affine=True, eps=1e-6)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        mods = self.adaLN_mlp(t).unsqueeze(1).chunk(2, dim=2)
        return modulate(self.layernorm(x), mods[0], mods[1])


class ModulationLayer(nn.Module):
    """Gates its input by a factor computed from the timestep embedding (zero at initialisation)."""

    def __init__(self, num_features: int):
        super().__init__()
        self.adaLN_mlp_linear = nn.Linear(num_features, num_features, bias=True)
        nn.init.zeros_(self.adaLN_mlp_linear.weight)
        nn.init.zeros_(self.adaLN_mlp_linear.bias)
        self.adaLN_mlp = nn.Sequential(nn.SiLU(), self.adaLN_mlp_linear)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x * self.adaLN_mlp(t).unsqueeze(1)


class PreAttentionBlock(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.adaptive_layernorm = AdaptiveLayerNorm(num_features)
        self.qkv = nn.Linear(num_features, 3 * num_features)
        self.q_norm = nn.LayerNorm(num_features, elementwise_affine=True, eps=1e-6)
        self.k_norm = nn.LayerNorm(num_features, elementwise_affine=True, eps=1e-6)
        nn.init.zeros_(self.qkv.bias)
        nn.init.normal_(self.qkv.weight, std=0.02)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x = self.adaptive_layernorm(x, t)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return self.q_norm(q), self.k_norm(k), v


class SelfAttention(nn.Module):
    def __init__(self, num_features: int, num_heads: int):
        super().__init__()
        self.num_features = num_features
        self.num_heads = num_heads

    def forward(self, q, k, v, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        B, T, C = v.size()
        q = q.view(B, T, self.num_heads, C // self.num_heads).transpose(1, 2)
        k = k.view(B, T, self.num_heads, C // self.num_heads).transpose(1, 2)
        v = v.view(B, T, self.num_heads, C // self.num_heads).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # (B, H, T, C/H)
        return out.transpose(1, 2).contiguous().view(B, T, C)


class PostAttentionBlock(nn.Module):
    def __init__(self, num_features: int, expansion_factor: int = 4):
        super().__init__()
        self.modulate_v = ModulationLayer(num_features)
        self.linear_v = nn.Linear(num_features, num_features)
        self.output_norm = AdaptiveLayerNorm(num_features)
        self.output_mlp = nn.Sequential(
            nn.Linear(num_features, expansion_factor * num_features),
            nn.GELU(approximate="tanh"),
            nn.Linear(expansion_factor * num_features, num_features),
        )
        self.modulate_output = ModulationLayer(num_features)

    def forward(self, v: torch.Tensor, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        y = x + self.modulate_v(self.linear_v(v), t)
        y = self.output_mlp(self.output_norm(y, t))
        return x + self.modulate_output(y, t)


class MMDiTBlock(nn.Module):
    def __init__(self, num_features: int, num_heads: int, expansion_factor: int = 4, is_last: bool = False):
        super().__init__()
        self.is_last = is_last
        self.pre_attention_block_1 = PreAttentionBlock(num_features)
        self.pre_attention_block_2 = PreAttentionBlock(num_features)
        self.attention = SelfAttention(num_features, num_heads)
        self.post_attention_block_1 = PostAttentionBlock(num_features, expansion_factor)
        if not is_last:
            self.post_attention_block_2 = PostAttentionBlock(num_features, expansion_factor)

    def forward(self, x1, x2, t, mask: Optional[torch.Tensor] = None):
        q1, k1, v1 = self.pre_attention_block_1(x1, t)
        q2, k2, v2 = self.pre_attention_block_2(x2, t)
        q = torch.cat([q1, q2], dim=1)
        k = torch.cat([k1, k2], dim=1)
        v = torch.cat([v1, v2], dim=1)
        v = self.attention(q, k, v, mask=mask)
        y1, y2 = v.split([x1.size(1), x2.size(1)], dim=1)
        y1 = self.post_attention_block_1(y1, x1, t)
        if not self.is_last:
            y2 = self.post_attention_block_2(y2, x2, t)
        return y1, y2
