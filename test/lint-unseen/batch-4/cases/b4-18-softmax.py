# case: b4-18-softmax
# modelled-on: ashworks1706/llm-from-scratch https://github.com/ashworks1706/llm-from-scratch/commit/5c57a74b80902e933e8e56be4228e805385a4d93
# label: buggy
# class: real-bug
# pattern: a SigLIP-style vision encoder attention written while following a tutorial: q, k, v of shape (batch, heads, patches, head_dim), scores `matmul(q, k.transpose(2, 3)) * self.scale` with scale = head_dim ** -0.5, a shape check on the (batch, heads, patches, patches) scores, then a float32 softmax, dropout and the weighted sum of the values
# why: the softmax is taken over dim=1, the heads axis of the (batch, heads, patches, patches) scores, while the code's own comment says it normalises row-wise; each patch's weights over the other patches no longer sum to 1. The repository's later rewrite of the same attention (commit e1fed67) takes the softmax over dim=-1
# source: https://github.com/ashworks1706/llm-from-scratch https://github.com/ashworks1706/llm-from-scratch/commit/5c57a74b80902e933e8e56be4228e805385a4d93 models/siglip.py
import torch
import torch.nn as nn


class VisionConfig:
    def __init__(self, hidden_size=768, num_attention_heads=12, attention_dropout=0.0, **kwargs):
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
        self.attention_dropout = attention_dropout


class PatchAttention(nn.Module):
    def __init__(self, config: VisionConfig):
        super().__init__()
        self.embed_dim = config.hidden_size
        self.num_heads = config.num_attention_heads
        self.head_dim = self.embed_dim // self.num_heads
        self.scale = self.head_dim**-0.5
        self.dropout = config.attention_dropout
        self.q_proj = nn.Linear(self.embed_dim, self.embed_dim)
        self.k_proj = nn.Linear(self.embed_dim, self.embed_dim)
        self.v_proj = nn.Linear(self.embed_dim, self.embed_dim)
        self.out_proj = nn.Linear(self.embed_dim, self.embed_dim)

    def forward(self, hidden_states):
        # hidden_states: (batch, patches, embed_dim)
        b, n, _ = hidden_states.size()
        q = self.q_proj(hidden_states).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

        # (batch, heads, patches, patches)
        attn_weights = torch.matmul(q, k.transpose(2, 3)) * self.scale
        if attn_weights.size() != (b, self.num_heads, n, n):
            raise ValueError(f"attention weights should be {(b, self.num_heads, n, n)}, got {attn_weights.size()}")

        # softmax row-wise, in float32
        attn_weights = nn.functional.softmax(attn_weights, dim=1, dtype=torch.float32).to(q.dtype)  # expect: ATT001
        attn_weights = nn.functional.dropout(attn_weights, p=self.dropout, training=self.training)

        out = torch.matmul(attn_weights, v)  # (batch, heads, patches, head_dim)
        out = out.transpose(1, 2).contiguous().reshape(b, n, self.embed_dim)
        return self.out_proj(out), attn_weights
