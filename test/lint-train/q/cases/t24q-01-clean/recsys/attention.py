# case: t24q-01-clean
# modelled-on: vatsalsaglani/bert4rec https://github.com/vatsalsaglani/bert4rec/commit/64cff6da0a75d3bec26bd77b63e7c0312e96f091
# label: correct
# class: clean
# pattern: a BERT4Rec-style encoder whose key-padding mask is built in the dataset module (a long 1/0 list, 1 for a real item, with the padding put on a random side); the multi-head module unsqueezes it twice to (B, 1, 1, L) and a separate scaled-dot-product module divides the queries by a temperature dim_key ** 0.5, multiplies by key.transpose(2, 3), fills mask == 0 with -1e9 and applies the softmax over dim=-1 before dropout
# why: correct: the dataset's mask is a keep mask (1 = real item), so masked_fill(mask == 0) blocks exactly the padded keys on whichever side they were put; every head projects to dim_key (the projections are heads * dim_key wide), so dim_key ** 0.5 is sqrt(d_k), and scaling q before the product scales the scores; transpose(2, 3) of (B, H, L, d_k) keys is the key transpose; the model runs in float32
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/vatsalsaglani/bert4rec https://github.com/vatsalsaglani/bert4rec/commit/64cff6da0a75d3bec26bd77b63e7c0312e96f091 scripts/attention.py
import torch
import torch.nn as nn


class ScaledDotProduct(nn.Module):
    def __init__(self, temperature: float, attention_dropout: float = 0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attention_dropout)

    def forward(self, q, k, v, mask=None):
        scores = torch.matmul(q / self.temperature, k.transpose(2, 3))
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.matmul(weights, v), weights


class MultiHead(nn.Module):
    def __init__(self, heads: int, dim_model: int, dim_key: int, dim_value: int, dropout: float = 0.1):
        super().__init__()
        self.heads, self.dim_key, self.dim_value = heads, dim_key, dim_value
        self.to_q = nn.Linear(dim_model, heads * dim_key, bias=False)
        self.to_k = nn.Linear(dim_model, heads * dim_key, bias=False)
        self.to_v = nn.Linear(dim_model, heads * dim_value, bias=False)
        self.merge = nn.Linear(heads * dim_value, dim_model, bias=False)
        self.attend = ScaledDotProduct(temperature=dim_key**0.5)
        self.dropout = nn.Dropout(dropout)
        self.norm = nn.LayerNorm(dim_model, eps=1e-6)

    def forward(self, q, k, v, mask=None):
        b, lq, lk = q.size(0), q.size(1), k.size(1)
        residual = q
        q = self.norm(q)
        q = self.to_q(q).view(b, lq, self.heads, self.dim_key).transpose(1, 2)
        k = self.to_k(k).view(b, lk, self.heads, self.dim_key).transpose(1, 2)
        v = self.to_v(v).view(b, lk, self.heads, self.dim_value).transpose(1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1).unsqueeze(1)  # (B, L) -> (B, 1, 1, L)
        out, weights = self.attend(q, k, v, mask=mask)
        out = out.transpose(1, 2).contiguous().view(b, lq, -1)
        return self.dropout(self.merge(out)) + residual, weights


class Encoder(nn.Module):
    def __init__(self, vocab: int, dim: int = 256, heads: int = 4, layers: int = 2, max_len: int = 64):
        super().__init__()
        self.items = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([MultiHead(heads, dim, dim, dim) for _ in range(layers)])
        self.out = nn.Linear(dim, vocab)

    def forward(self, source, source_mask):
        x = self.items(source) + self.pos(torch.arange(source.size(1), device=source.device))
        for block in self.blocks:
            x, _ = block(x, x, x, mask=source_mask)
        return self.out(x).permute(0, 2, 1)
