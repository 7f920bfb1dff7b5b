import torch
import torch.nn as nn

from tinydec.masked_attn import CausalHeads


class Layer(nn.Module):
    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.attn = CausalHeads(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))
        self.n1 = nn.LayerNorm(dim)
        self.n2 = nn.LayerNorm(dim)

    def forward(self, x):
        x = self.n1(x + self.attn(x))
        return self.n2(x + self.ff(x))


class TinyDecoder(nn.Module):
    def __init__(self, vocab, dim, heads, hidden, depth, max_len=1000):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([Layer(dim, heads, hidden) for _ in range(depth)])
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        n = ids.shape[1]
        x = self.tok(ids) + self.pos(torch.arange(n, device=ids.device).unsqueeze(0))
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)
