import torch
import torch.nn as nn

from models.attention import CachedMultiHeadAttention


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, d_model: int, n_heads: int, block_size: int, n_layers: int):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        self.attn = nn.ModuleList([CachedMultiHeadAttention(d_model, n_heads, block_size) for _ in range(n_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx, past_kv=None):
        T = idx.size(1)
        start = 0 if past_kv is None else past_kv[0][0].size(2)
        x = self.tok(idx) + self.pos(torch.arange(start, start + T, device=idx.device))
        new_past = []
        for i, (attn, norm) in enumerate(zip(self.attn, self.norms)):
            out, kv = attn(norm(x), None if past_kv is None else past_kv[i])
            x = x + out
            new_past.append(kv)
        return self.head(x), new_past
