# case: t8b-04-transpose
# modelled-on: ies0411/openViT https://github.com/ies0411/openViT/commit/d7bca1c180b188035d4983f448deabd8b8469d7e
# label: correct
# class: fixed
# pattern: the ViT's attention after the fix, moved to its own module and configured from a config object: q, k, v viewed as (B, N, heads, head_dim) and permuted, the keys straight to (B, heads, head_dim, N) with permute(0, 2, 3, 1), so the score product is a plain q @ k; the scale sqrt(head_dim) is built once in __init__; an encoder block in another file calls it
# why: correct: permute(0, 2, 3, 1) of the (B, N, heads, head_dim) keys gives (B, heads, head_dim, N), the transposed keys, so q @ k is (B, heads, N, N) contracted over the head features; the scale is sqrt(embedding_dimension / num_heads) and the softmax runs over the key axis
# looks-like: ATT004, ATT005
# source: https://github.com/ies0411/openViT https://github.com/ies0411/openViT/commit/d7bca1c180b188035d4983f448deabd8b8469d7e model/backbone/attention/self_attention.py
import torch
import torch.nn as nn


class MultiheadedSelfAttention(nn.Module):
    def __init__(self, model_cfg):
        super().__init__()
        self.num_heads = model_cfg.num_heads
        self.embedding_dimension = model_cfg.embedding_dimension
        self.head_dimension = int(self.embedding_dimension / self.num_heads)
        self.query = nn.Linear(self.embedding_dimension, self.embedding_dimension)
        self.key = nn.Linear(self.embedding_dimension, self.embedding_dimension)
        self.value = nn.Linear(self.embedding_dimension, self.embedding_dimension)
        self.dropout = nn.Dropout(model_cfg.drop_rate)
        self.register_buffer("scale", torch.sqrt(self.head_dimension * torch.ones(1)))

    def forward(self, x):
        # x: (B, patches + 1, embedding_dimension)
        batch_size = x.size(0)
        q = self.query(x)
        k = self.key(x)
        v = self.value(x)
        # (B, N, heads, head_dim) -> (B, heads, N, head_dim)
        q = q.view(batch_size, -1, self.num_heads, self.head_dimension).permute(0, 2, 1, 3)
        # (B, N, heads, head_dim) -> (B, heads, head_dim, N)
        k = k.view(batch_size, -1, self.num_heads, self.head_dimension).permute(0, 2, 3, 1)
        v = v.view(batch_size, -1, self.num_heads, self.head_dimension).permute(0, 2, 1, 3)
        attention = torch.softmax(q @ k / self.scale, dim=-1)  # (B, heads, N, N)
        x = self.dropout(attention) @ v  # (B, heads, N, head_dim)
        x = x.permute(0, 2, 1, 3).reshape(batch_size, -1, self.embedding_dimension)
        return x, attention
