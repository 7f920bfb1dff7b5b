# case: t8b-15-scale
# modelled-on: MarcoMeter/episodic-transformer-memory-ppo https://github.com/MarcoMeter/episodic-transformer-memory-ppo/commit/acc5cb2e0cdc87bd7b5ce857d270a72a66146e0b
# label: buggy
# class: real-bug
# pattern: a PPO agent with a transformer-XL style episodic memory: multi-head attention adapted from a well-known tutorial projects values, keys and queries with Linear(embed_dim, embed_dim), reshapes them to (N, len, heads, head_size), scores with einsum "nqhd,nkhd->nhqk", hides padded memory slots with masked_fill(mask == 0, -1e20) and softmaxes over dim=3 after dividing by embed_dim ** (1/2); a transformer block calls it with the memories as keys/values and the current step as query
# why: buggy: the scores are per head (head_size = embed_dim // num_heads wide) but are divided by sqrt(embed_dim), i.e. by sqrt(num_heads) too much; the paper the layer follows scales by sqrt(d_k) with d_k = d_model / h (the 2024 fix of this module, PR #22, moved the projections before the head split but kept the scale); no fix of the scale was found
# source: https://github.com/MarcoMeter/episodic-transformer-memory-ppo https://github.com/MarcoMeter/episodic-transformer-memory-ppo/pull/22 transformer.py
import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Multi head attention without dropout."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_size = embed_dim // num_heads
        assert self.head_size * num_heads == embed_dim, "Embedding dimension needs to be divisible by the number of heads"
        self.values = nn.Linear(embed_dim, embed_dim, bias=False)
        self.keys = nn.Linear(embed_dim, embed_dim, bias=False)
        self.queries = nn.Linear(embed_dim, embed_dim, bias=False)
        self.fc_out = nn.Linear(embed_dim, embed_dim)

    def forward(self, values, keys, queries, mask):
        # values, keys: (N, L, D); queries: (N, 1, D); mask: (N, L) bool, True = valid memory slot
        N = queries.shape[0]
        value_len, key_len, query_len = values.shape[1], keys.shape[1], queries.shape[1]

        values = self.values(values).reshape(N, value_len, self.num_heads, self.head_size)
        keys = self.keys(keys).reshape(N, key_len, self.num_heads, self.head_size)
        queries = self.queries(queries).reshape(N, query_len, self.num_heads, self.head_size)

        energy = torch.einsum("nqhd,nkhd->nhqk", [queries, keys])  # (N, heads, query_len, key_len)
        if mask is not None:
            energy = energy.masked_fill(mask.unsqueeze(1).unsqueeze(1) == 0, float("-1e20"))  # -inf causes NaN

        attention = torch.softmax(energy / (self.embed_dim ** (1 / 2)), dim=3)  # expect: ATT004

        out = torch.einsum("nhql,nlhd->nqhd", [attention, values]).reshape(N, query_len, self.num_heads * self.head_size)
        return self.fc_out(out), attention


class TransformerBlock(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.attention = MultiHeadAttention(embed_dim, num_heads)
        self.norm1 = nn.LayerNorm(embed_dim)
        self.norm_kv = nn.LayerNorm(embed_dim)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.fc = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.ReLU())

    def forward(self, value, key, query, mask):
        query_ = self.norm1(query)
        value = self.norm_kv(value)
        key = value
        attention, attention_weights = self.attention(value, key, query_, mask)
        x = attention + query
        return x + self.fc(self.norm2(x)), attention_weights
