# case: b7-19-scale
# modelled-on: Varun0157/transformer-from-scratch https://github.com/Varun0157/transformer-from-scratch/commit/3e99d069fe25ab5f4a8a6d394d89581d7999f70e
# label: buggy
# class: real-bug
# pattern: an encoder-decoder transformer for translation written after a well-known video tutorial: the embeddings are reshaped into (N, len, heads, head_dim) and projected per head, the scores are formed with einsum "nqhd,nkhd->nhqk", masked with masked_fill(mask == 0, -1e30) and normalised with softmax(QK_T / embed_size ** (1 / 2), dim=3); the masks (keep masks: src != pad, tril) are built by the model in another file
# why: buggy: the scores are dot products of head_dim-wide queries and keys, so the paper's scale is 1/sqrt(head_dim); dividing by sqrt(embed_size) makes every logit sqrt(heads) times too small and flattens the attention. No fix was found; the label rests on the paper, which the repository's notes cite
# source: https://github.com/Varun0157/transformer-from-scratch https://github.com/Varun0157/transformer-from-scratch/commit/3e99d069fe25ab5f4a8a6d394d89581d7999f70e src/model/utils.py
import torch
import torch.nn as nn

NEG_INF = float("-1e30")  # rather than -inf


class SelfAttention(nn.Module):
    def __init__(self, embed_size: int, heads: int):
        super().__init__()
        assert embed_size % heads == 0, "embed size needs to be divisible by heads"
        self.embed_size, self.heads = embed_size, heads
        self.head_dim = embed_size // heads
        self.W_v = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.W_k = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.W_q = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.fc_out = nn.Linear(heads * self.head_dim, embed_size)

    def forward(self, values, keys, query, mask=None):
        # values, keys, query: (N, len, embed_size)
        N = query.shape[0]
        value_len, key_len, query_len = values.shape[1], keys.shape[1], query.shape[1]
        values = self.W_v(values.reshape(N, value_len, self.heads, self.head_dim))
        keys = self.W_k(keys.reshape(N, key_len, self.heads, self.head_dim))
        query = self.W_q(query.reshape(N, query_len, self.heads, self.head_dim))
        QK_T = torch.einsum("nqhd,nkhd->nhqk", [query, keys])  # (N, heads, q_len, k_len)
        if mask is not None:
            QK_T = QK_T.masked_fill(mask == 0, NEG_INF)
        QK_T_scaled = torch.softmax(QK_T / (self.embed_size ** (1 / 2)), dim=3)  # expect: ATT004
        out = torch.einsum("nhql,nlhd->nqhd", [QK_T_scaled, values]).reshape(N, query_len, self.heads * self.head_dim)
        return self.fc_out(out)


class TransformerBlock(nn.Module):
    def __init__(self, embed_size, heads, dropout, forward_expansion):
        super().__init__()
        self.attention = SelfAttention(embed_size, heads)
        self.norm1, self.norm2 = nn.LayerNorm(embed_size), nn.LayerNorm(embed_size)
        self.feed_forward = nn.Sequential(
            nn.Linear(embed_size, forward_expansion * embed_size), nn.ReLU(), nn.Linear(forward_expansion * embed_size, embed_size)
        )
        self.dropout = nn.Dropout(dropout)

    def forward(self, value, key, query, mask):
        x = self.dropout(self.norm1(self.attention(value, key, query, mask) + query))
        return self.dropout(self.norm2(self.feed_forward(x) + x))
