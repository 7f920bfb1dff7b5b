# case: b4-19-softmax
# modelled-on: ashworks1706/llm-from-scratch https://github.com/ashworks1706/llm-from-scratch/commit/e1fed677478b0e36aace14d4bd2b87d734dc7f7b
# label: correct
# class: fixed
# pattern: the same SigLIP-style vision attention as the repository rewrote it later: (batch, heads, patches, head_dim) projections, scores scaled by head_dim ** -0.5, a float32 softmax over the last axis cast back to the query dtype, dropout, and the weighted sum of the values
# why: correct: the softmax normalises each patch's scores over the key patches (dim=-1); the scale is applied once, before the softmax
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/ashworks1706/llm-from-scratch https://github.com/ashworks1706/llm-from-scratch/commit/e1fed677478b0e36aace14d4bd2b87d734dc7f7b paligemma2/attention.py
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

        # softmax row-wise, in float32
        attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(q.dtype)
        attn_weights = nn.functional.dropout(attn_weights, p=self.dropout, training=self.training)

        out = torch.matmul(attn_weights, v)  # (batch, heads, patches, head_dim)
        out = out.transpose(1, 2).contiguous().reshape(b, n, self.embed_dim)
        return self.out_proj(out), attn_weights
