# case: b7-15-mask
# modelled-on: dodoseung/transformer-pytorch https://github.com/dodoseung/transformer-pytorch/commit/d6f651aa73f76cef758afecfb0b5571839c319d5
# label: correct
# class: fixed
# pattern: a from-scratch encoder-decoder transformer in one file: the model's forward builds the masks with module-level helpers (a padding mask seq != pad of shape (B, 1, 1, S), a look-ahead mask tril(ones) combined with the target's padding mask by &), the multi-head module hands them to scaled_dot_product_attention, which fills the scores with masked_fill(mask == 0, -1e10)
# why: correct (after the fix commit): both helpers now return keep masks (True or 1 = may attend), which masked_fill(mask == 0, -1e10) reads correctly; -1e10 fills float32 scores (the softmax is taken in float32)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/dodoseung/transformer-pytorch https://github.com/dodoseung/transformer-pytorch/commit/d6f651aa73f76cef758afecfb0b5571839c319d5 transformer.py
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
    # query, key, value: (batch, heads, seq_len, d_k); mask: (B, 1, 1 or S, S), True = may attend
    d_k = query.size(-1)
    attention_score = torch.matmul(query, key.transpose(-2, -1))
    attention_score = attention_score / math.sqrt(d_k)
    attention_score = attention_score.masked_fill(mask == 0, -1e10) if mask is not None else attention_score
    attention_weights = F.softmax(attention_score, dim=-1, dtype=torch.float)
    return torch.matmul(attention_weights, value)


def look_ahead_mask(seq, pad):
    seq_len = seq.size(1)
    mask = torch.tril(torch.ones(seq_len, seq_len)).bool()  # (S, S), True = may attend
    pad_mask = (seq != pad).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, S)
    return mask & pad_mask


def padding_mask(seq, pad):
    mask = seq != pad
    return mask.unsqueeze(1).unsqueeze(2)  # (B, 1, 1, S)


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
    def __init__(self, vocab_size, d_model=512, num_heads=8, num_layers=6, src_pad=0, trg_pad=0):
        super().__init__()
        self.src_pad, self.trg_pad = src_pad, trg_pad
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.ModuleList([Layer(d_model, num_heads) for _ in range(num_layers)])
        self.decoder = nn.ModuleList([Layer(d_model, num_heads, cross=True) for _ in range(num_layers)])
        self.fc = nn.Linear(d_model, vocab_size)

    def forward(self, src, trg):
        src_mask = padding_mask(src, self.src_pad)
        trg_mask = look_ahead_mask(trg, self.trg_pad)
        memory = self.embedding(src) * math.sqrt(self.embedding.embedding_dim)
        for layer in self.encoder:
            memory = layer(memory, src_mask)
        out = self.embedding(trg) * math.sqrt(self.embedding.embedding_dim)
        for layer in self.decoder:
            out = layer(out, trg_mask, memory, src_mask)
        return F.log_softmax(self.fc(out), dim=-1)
