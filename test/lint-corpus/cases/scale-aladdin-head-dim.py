# case: scale-aladdin-head-dim
# modelled-on: aladdinpersson/Machine-Learning-Collection https://github.com/aladdinpersson/Machine-Learning-Collection/issues/65
# label: correct
# pattern: the suggested fix: divide by head_dim ** (1/2); einsum layout (n, h, q, k) with softmax over dim=3 and a -1e20 fill where the keep mask is 0, float32 training
# why: dim 3 is the key axis of "nhqk"; -1e20 is representable in float32 and the model never runs in half precision
# looks-like: ATT001, ATT004, ATT007
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, embed_size: int, heads: int):
        super().__init__()
        self.embed_size = embed_size
        self.heads = heads
        self.head_dim = embed_size // heads
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
        energy = torch.einsum("nqhd,nkhd->nhqk", [queries, keys])
        if mask is not None:
            energy = energy.masked_fill(mask == 0, float("-1e20"))
        attention = torch.softmax(energy / (self.head_dim ** (1 / 2)), dim=3)
        out = torch.einsum("nhql,nlhd->nqhd", [attention, values]).reshape(N, query_len, self.embed_size)
        return self.fc_out(out)


def make_src_mask(src: torch.Tensor, src_pad_idx: int) -> torch.Tensor:
    return (src != src_pad_idx).unsqueeze(1).unsqueeze(2)  # (N, 1, 1, src_len), 1 = token
