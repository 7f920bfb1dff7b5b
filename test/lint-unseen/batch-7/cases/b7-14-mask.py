# case: b7-14-mask
# modelled-on: dodoseung/transformer-pytorch https://github.com/dodoseung/transformer-pytorch/commit/c9df68766cdd34824b4fb568fcedbd06b6af872b
# label: buggy
# class: real-bug
# pattern: a from-scratch encoder-decoder transformer in one file: the model's forward builds the masks with module-level helpers (a look-ahead mask from triu(ones, diagonal=1) with the padded key columns set to 1, a padding mask of zeros with 1 at the padded key columns), the multi-head module hands them to scaled_dot_product_attention, which fills the scores with masked_fill(mask == 0, -1e10)
# why: buggy: both helpers mark the positions to hide with 1 (the future above the diagonal, the padding columns), the convention of the earlier `score += mask * -1e9` that this commit replaced, but masked_fill(mask == 0, ...) hides the positions marked 0, so the decoder sees only the future and the padding and the encoder attends only to padding; the fix commit rewrites the helpers as keep masks (seq != pad, tril)
# source: https://github.com/dodoseung/transformer-pytorch https://github.com/dodoseung/transformer-pytorch/commit/c9df68766cdd34824b4fb568fcedbd06b6af872b transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_model, self.num_heads = d_model, num_heads
        self.d_k = d_model // num_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        batch = query.size(0)
        query = self.query(query).view(batch, -1, self.num_heads, self.d_k).transpose(1, 2)
        key = self.key(key).view(batch, -1, self.num_heads, self.d_k).transpose(1, 2)
        value = self.value(value).view(batch, -1, self.num_heads, self.d_k).transpose(1, 2)
        out = scaled_dot_product_attention(query, key, value, mask)  # (batch, heads, seq, d_k)
        out = out.transpose(1, 2).contiguous().view(batch, -1, self.d_model)
        return self.out(out)


def scaled_dot_product_attention(query, key, value, mask):
    # query, key, value: (batch, heads, seq_len, d_k); mask: (1, seq_len, seq_len)
    d_k = query.size(-1)
    attention_score = torch.matmul(query, key.transpose(-2, -1))
    attention_score = attention_score / math.sqrt(d_k)
    attention_score = attention_score.masked_fill(mask == 0, -1e10) if mask is not None else attention_score  # expect: ATT002
    attention_weights = F.softmax(attention_score, dim=-1, dtype=torch.float)
    return torch.matmul(attention_weights, value)


def look_ahead_mask(seq):
    size_pad = seq.size(1)
    mask = torch.ones(size_pad, size_pad)
    mask = torch.triu(mask, diagonal=1)
    mask[:, seq[0, :] == 0] = 1  # padded keys
    return mask.unsqueeze(0)


def padding_mask(seq):
    size_pad = seq.size(1)
    mask = torch.zeros(size_pad, size_pad)
    mask[:, seq[0, :] == 0] = 1  # padded keys
    return mask.unsqueeze(0)


class Layer(nn.Module):
    def __init__(self, d_model, num_heads, cross=False):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, num_heads)
        self.cross_attn = MultiHeadAttention(d_model, num_heads) if cross else None
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])

    def forward(self, x, mask, memory=None, memory_mask=None):
        x = self.norms[0](x + self.self_attn(x, x, x, mask))
        if self.cross_attn is not None:
            x = self.norms[1](x + self.cross_attn(x, memory, memory, memory_mask))
        return self.norms[2](x + self.ff(x))


class Transformer(nn.Module):
    def __init__(self, vocab_size, d_model=512, num_heads=8, num_layers=6):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.ModuleList([Layer(d_model, num_heads) for _ in range(num_layers)])
        self.decoder = nn.ModuleList([Layer(d_model, num_heads, cross=True) for _ in range(num_layers)])
        self.fc = nn.Linear(d_model, vocab_size)

    def forward(self, src, trg):
        src_mask = padding_mask(src)
        trg_mask = look_ahead_mask(trg)
        memory = self.embedding(src) * math.sqrt(self.embedding.embedding_dim)
        for layer in self.encoder:
            memory = layer(memory, src_mask)
        out = self.embedding(trg) * math.sqrt(self.embedding.embedding_dim)
        for layer in self.decoder:
            out = layer(out, trg_mask, memory, src_mask)
        return F.log_softmax(self.fc(out), dim=-1)
