# case: t28u-01-clean
# modelled-on: Gaurav14cs17/GenAI https://github.com/Gaurav14cs17/GenAI/commit/252f1fb6ebf4b8f242bc55c096b1b4ecf267aceb
# label: correct
# class: clean
# pattern: a flow-matching DiT (SoFlow re-implementation, diffusion course project): the block's Attention keeps self.scale = self.head_dim ** -0.5 in __init__ but never uses it; the fused Linear(dim, 3 * dim) is reshaped to (B, N, 3, heads, head_dim), permuted to (3, B, heads, N, head_dim) and unbound, and q, k, v go unscaled to F.scaled_dot_product_attention without scale=; the model module builds DiT-S/B/L/XL configurations (hidden 384..1152, heads 6..16, so head_dim 64 or 72) and stacks DiTBlock(hidden_size, num_heads)
# why: correct: the fused kernel's default scale is 1/sqrt(E) with E = q.size(-1) = head_dim, exactly the self.scale the module computes and leaves unused, so the scores are scaled once and by the per-head width; the unused attribute is dead code, not a scale the kernel ignores (it has no factor beyond 1/sqrt(head_dim)); q, k, v are (B, heads, N, head_dim), so the kernel's softmax runs over the key patches
# looks-like: ATT003, ATT004
# source: https://github.com/Gaurav14cs17/GenAI https://github.com/Gaurav14cs17/GenAI/commit/252f1fb6ebf4b8f242bc55c096b1b4ecf267aceb 10_projects/paper_soflow/soflow/models/layers.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def modulate(x, shift, scale):
    # x: (B, N, D); shift, scale: (B, D)
    return x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)


class Attention(nn.Module):
    def __init__(self, dim, num_heads=8, qkv_bias=False, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)  # each (B, heads, N, head_dim)
        drop = self.attn_drop.p if self.training else 0.0
        x = F.scaled_dot_product_attention(q, k, v, dropout_p=drop)  # (B, heads, N, head_dim)
        x = x.transpose(1, 2).reshape(B, N, C)
        return self.proj_drop(self.proj(x))


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features=None, drop=0.0):
        super().__init__()
        hidden_features = hidden_features or 4 * in_features
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = nn.GELU(approximate="tanh")
        self.fc2 = nn.Linear(hidden_features, in_features)
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(self.act(self.fc1(x)))))


class DiTBlock(nn.Module):
    """adaLN-Zero block: the conditioning vector sets shift, scale and gate of both sub-layers."""

    def __init__(self, hidden_size, num_heads, mlp_ratio=4.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)
        self.attn = Attention(hidden_size, num_heads=num_heads, qkv_bias=True)
        self.norm2 = nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)
        self.mlp = Mlp(hidden_size, int(hidden_size * mlp_ratio))
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(hidden_size, 6 * hidden_size))
        nn.init.zeros_(self.adaLN_modulation[-1].weight)
        nn.init.zeros_(self.adaLN_modulation[-1].bias)

    def forward(self, x, c):
        shift_a, scale_a, gate_a, shift_m, scale_m, gate_m = self.adaLN_modulation(c).chunk(6, dim=1)
        x = x + gate_a.unsqueeze(1) * self.attn(modulate(self.norm1(x), shift_a, scale_a))
        x = x + gate_m.unsqueeze(1) * self.mlp(modulate(self.norm2(x), shift_m, scale_m))
        return x


class FinalLayer(nn.Module):
    def __init__(self, hidden_size, patch_size, out_channels):
        super().__init__()
        self.norm = nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)
        self.linear = nn.Linear(hidden_size, patch_size * patch_size * out_channels)
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(hidden_size, 2 * hidden_size))

    def forward(self, x, c):
        shift, scale = self.adaLN_modulation(c).chunk(2, dim=1)
        return self.linear(modulate(self.norm(x), shift, scale))
