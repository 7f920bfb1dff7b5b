# case: scale-aladdin-embed-size
# modelled-on: aladdinpersson/Machine-Learning-Collection https://github.com/aladdinpersson/Machine-Learning-Collection/issues/65
# label: buggy
# pattern: from-scratch transformer: energy = einsum("nqhd,nkhd->nhqk"), masked with -1e20 where mask == 0, then softmax(energy / embed_size ** (1/2), dim=3)
# why: embed_size is heads * head_dim; the divisor should be sqrt(head_dim). The softmax over dim=3 is right for (n, h, q, k) and the -1e20 fill is fine in float32
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, embed_size: int, heads: int):
        super().__init__()
        self.embed_size = embed_size
        self.heads = heads
        self.head_dim = embed_size // heads
        assert self.head_dim * heads == embed_size, "Embedding size needs to be divisible by heads"
        self.values = nn.Linear(embed_size, embed_size)
        self.keys = nn.Linear(embed_size, embed_size)
        self.queries = nn.Linear(embed_size, embed_size)
        self.fc_out = nn.Linear(embed_size, embed_size)

    def forward(self, values, keys, query, mask):
        N = query.shape[0]
        value_len, key_len, query_len = values.shape[1], keys.shape[1], query.shape[1]
        values = self.values(values).reshape(N, value_len, self.heads, self.head_dim)
        keys = self.keys(keys).reshape(N, key_len, self.heads, self.head_dim)
        queries = self.queries(query).reshape(N, query_len, self.heads, self.head_dim)

        energy = torch.einsum("nqhd,nkhd->nhqk", [queries, keys])  # (N, heads, query_len, key_len)
        if mask is not None:
            energy = energy.masked_fill(mask == 0, float("-1e20"))
        attention = torch.softmax(energy / (self.embed_size ** (1 / 2)), dim=3)  # expect: ATT004

        out = torch.einsum("nhql,nlhd->nqhd", [attention, values]).reshape(N, query_len, self.heads * self.head_dim)
        return self.fc_out(out)
