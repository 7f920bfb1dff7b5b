# case: b5-31-scale
# modelled-on: a-r-r-o-w/attention-is-all-you-need https://github.com/a-r-r-o-w/attention-is-all-you-need/commit/93aefc08b555fcc813bbe844fcaf24ac1ed2783f
# label: buggy
# class: real-bug
# pattern: a paper-style multi-head attention that takes the total query/key width d_k (split into num_heads heads of query_key_dim // num_heads) and builds its scaled dot-product module, in another file, with a width argument from which that module registers sqrt(width) as its scale buffer; the encoder layer builds the multi-head module with query_key_dim = embedding_dim = 512 and 8 heads
# why: the multi-head module passes the total width query_key_dim to the scaled dot-product module, but the product is taken per head over query_key_dim // num_heads features: the scores are divided by sqrt(512) instead of sqrt(64), sqrt(num_heads) times too much; commit 93aefc0 ("fix sdpa scale factor") passes the per-head width
# source: https://github.com/a-r-r-o-w/attention-is-all-you-need https://github.com/a-r-r-o-w/attention-is-all-you-need/commit/93aefc08b555fcc813bbe844fcaf24ac1ed2783f src/attention_is_all_you_need/multihead_attention.py
from typing import Optional

import torch
import torch.nn as nn

from sdp_attention import DotProductAttention

Tensor = torch.FloatTensor


class MultiHeadAttention(nn.Module):
    def __init__(self, embedding_dim: int, query_key_dim: int, value_dim: int, num_heads: int) -> None:
        super().__init__()
        self.embedding_dim = embedding_dim
        self.query_key_dim = query_key_dim
        self.value_dim = value_dim
        self.num_heads = num_heads
        self.query_key_head_per_dim = query_key_dim // num_heads
        self.value_head_per_dim = value_dim // num_heads
        if self.query_key_head_per_dim * num_heads != query_key_dim:
            raise ValueError("query_key_dim must be divisible by num_heads")
        self.linear_query = nn.Linear(embedding_dim, query_key_dim, bias=False)
        self.linear_key = nn.Linear(embedding_dim, query_key_dim, bias=False)
        self.linear_value = nn.Linear(embedding_dim, value_dim, bias=False)
        self.attend = DotProductAttention(query_key_dim)
        self.linear_final = nn.Linear(value_dim, embedding_dim, bias=False)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        b = query.shape[0]
        # [b, len, d] -> [b, heads, len, d / heads]
        query = self.linear_query(query).view(b, -1, self.num_heads, self.query_key_head_per_dim).transpose(1, 2)
        key = self.linear_key(key).view(b, -1, self.num_heads, self.query_key_head_per_dim).transpose(1, 2)
        value = self.linear_value(value).view(b, -1, self.num_heads, self.value_head_per_dim).transpose(1, 2)
        x = self.attend(query, key, value, mask)
        x = x.transpose(1, 2).contiguous().view(b, -1, self.value_dim)
        return self.linear_final(x)


class EncoderLayer(nn.Module):
    def __init__(self, embedding_dim: int = 512, num_heads: int = 8, ffn_dim: int = 2048) -> None:
        super().__init__()
        self.mha = MultiHeadAttention(embedding_dim, embedding_dim, embedding_dim, num_heads)
        self.norm1 = nn.LayerNorm(embedding_dim)
        self.ffn = nn.Sequential(nn.Linear(embedding_dim, ffn_dim), nn.ReLU(), nn.Linear(ffn_dim, embedding_dim))
        self.norm2 = nn.LayerNorm(embedding_dim)

    def forward(self, x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        x = self.norm1(x + self.mha(x, x, x, mask))
        return self.norm2(x + self.ffn(x))
