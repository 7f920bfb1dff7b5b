# case: b27-12-clean
# modelled-on: zyh1996saa/powerflow-graph-transformer https://github.com/zyh1996saa/powerflow-graph-transformer/commit/0efc8b36f6a581ea439baffa53decfe91ba5338c
# label: correct
# class: clean
# pattern: a power-flow solver for a 39-bus grid as a hybrid graph transformer over padded bus sets: a local message-passing step over closed branches and a global attention over all buses: one qkv Linear viewed (b, n, 3, heads, head_dim) and permuted (2, 0, 3, 1, 4), scores q @ k.transpose(-2, -1) * head_dim ** -0.5 plus an additive bias from branch types, a pair mask valid[:, None, :] & valid[:, :, None] filled with -inf where it is False, softmax(dim=-1), then torch.nan_to_num(attn, nan=0.0) before dropout, and padded buses zeroed after every block
# why: correct: the pair mask is True where both buses exist, so ~pair_mask selects padding; rows of padded buses are entirely -inf and the softmax makes NaN there, which nan_to_num turns into zero weights on purpose after the softmax (it changes only those NaN rows, so it masks nothing a second time; the block zeroes those rows anyway), while every real bus keeps at least itself; the scale is the per-head width; permute(2, 0, 3, 1, 4) puts q, k, v first and heads before nodes, so transpose(-2, -1) is the key transpose
# looks-like: ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/zyh1996saa/powerflow-graph-transformer https://github.com/zyh1996saa/powerflow-graph-transformer/commit/0efc8b36f6a581ea439baffa53decfe91ba5338c 39-bus-sys/hybrid_graph_transformer_gpt0419fix.py
from typing import Optional

import torch
import torch.nn as nn


class LocalMessagePassing(nn.Module):
    def __init__(self, dim: int, dropout: float = 0.0):
        super().__init__()
        self.node_proj = nn.Linear(dim, dim)
        self.edge_proj = nn.Linear(dim, dim)
        self.msg_proj = nn.Linear(dim, dim)
        self.out_proj = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, node_x, edge_x, closed_mask, node_valid_mask):
        msg = self.msg_proj(torch.tanh(self.node_proj(node_x).unsqueeze(1) + self.edge_proj(edge_x)))
        msg = msg * closed_mask.unsqueeze(-1).to(msg.dtype)
        deg = closed_mask.sum(dim=-1, keepdim=True).clamp_min(1).to(msg.dtype)
        delta = self.out_proj(self.dropout(msg.sum(dim=2) / deg))
        return delta * node_valid_mask.unsqueeze(-1).to(delta.dtype)


class GlobalGraphAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int, attn_drop: float = 0.0):
        super().__init__()
        if dim % num_heads != 0:
            raise ValueError("dim must be divisible by num_heads")
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.out_proj = nn.Linear(dim, dim)
        self.attn_drop = nn.Dropout(attn_drop)

    def forward(self, x: torch.Tensor, node_valid_mask: torch.Tensor, attn_bias: Optional[torch.Tensor] = None):
        bsz, num_nodes, dim = x.shape
        qkv = self.qkv(x).view(bsz, num_nodes, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        if attn_bias is not None:
            scores = scores + attn_bias
        pair_mask = node_valid_mask.unsqueeze(1) & node_valid_mask.unsqueeze(2)
        scores = scores.masked_fill(~pair_mask.unsqueeze(1), float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        attn = torch.nan_to_num(attn, nan=0.0, posinf=0.0, neginf=0.0)
        attn = self.attn_drop(attn)
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(bsz, num_nodes, dim)
        return self.out_proj(out)


class HybridBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int, dropout: float):
        super().__init__()
        self.local_norm = nn.LayerNorm(dim)
        self.local_mp = LocalMessagePassing(dim, dropout)
        self.global_norm = nn.LayerNorm(dim)
        self.global_attn = GlobalGraphAttention(dim, num_heads, attn_drop=dropout)
        self.ffn_norm = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, node_x, edge_x, closed_mask, node_valid_mask, attn_bias):
        node_x = node_x + self.local_mp(self.local_norm(node_x), edge_x, closed_mask, node_valid_mask)
        node_x = node_x + self.global_attn(self.global_norm(node_x), node_valid_mask, attn_bias)
        node_x = node_x + self.ffn(self.ffn_norm(node_x))
        return node_x * node_valid_mask.unsqueeze(-1).to(node_x.dtype)
