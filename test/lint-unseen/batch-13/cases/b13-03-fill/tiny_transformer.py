# case: b13-03-fill
# modelled-on: meet-ai/tinytransformer https://github.com/meet-ai/tinytransformer/commit/16614a1ee332da342c096e4ceab65783259240cc
# label: buggy
# class: real-bug
# pattern: a from-scratch translation transformer, one AttentionHead module per head over chunks of the model width; the masks are built in a utils module (True = padding or a future key, per its comments: "masked_fill replaces the True positions") and passed to every head, which calls scores.masked_fill(mask, -1e9) as a statement of its own before the softmax
# why: buggy: torch.Tensor.masked_fill is out of place and its result is thrown away, so the softmax sees the unmasked scores: padding keys get weight and the decoder's self-attention reads future target tokens, contrary to the code's own comments (the mask is there to hide padding and future tokens); the "fix multiheadatt" commit replaced a broken index assignment with this discarded call and the code stayed so; the masks' polarity (True = hide) matches the fill
# source: https://github.com/meet-ai/tinytransformer https://github.com/meet-ai/tinytransformer/commit/16614a1ee332da342c096e4ceab65783259240cc tinytransformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from masks import source_mask, target_mask


class AttentionHead(nn.Module):
    def __init__(self, width: int, dropout: float = 0.1):
        super().__init__()
        self.Q = nn.Linear(width, width)
        self.K = nn.Linear(width, width)
        self.V = nn.Linear(width, width)
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, mask=None):
        query = self.Q(q)
        key = self.K(k)
        value = self.V(v)
        scores = torch.matmul(query, key.transpose(-2, -1)) / (key.size(-1) ** 0.5)
        if mask is not None:
            # masked_fill replaces the positions where mask is True
            scores.masked_fill(mask, -1e9)  # expect: ATT007
        weights = F.softmax(scores, dim=-1)
        return torch.matmul(self.dropout(weights), value)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_heads: int, width: int):
        super().__init__()
        self.n_heads = n_heads
        self.heads = nn.ModuleList([AttentionHead(width // n_heads) for _ in range(n_heads)])
        self.join = nn.Linear(width, width)

    def forward(self, q, k, v, mask):
        qs = torch.chunk(q, self.n_heads, dim=-1)
        ks = torch.chunk(k, self.n_heads, dim=-1)
        vs = torch.chunk(v, self.n_heads, dim=-1)
        outs = [self.heads[i](qs[i], ks[i], vs[i], mask) for i in range(len(qs))]
        return self.join(torch.cat(outs, dim=-1))


class DecoderLayer(nn.Module):
    def __init__(self, n_heads: int, width: int):
        super().__init__()
        self.self_att = MultiHeadAttention(n_heads, width)
        self.cross_att = MultiHeadAttention(n_heads, width)
        self.norm1 = nn.LayerNorm(width)
        self.norm2 = nn.LayerNorm(width)

    def forward(self, memory, target, src_mask, tgt_mask):
        x = self.norm1(target + self.self_att(target, target, target, tgt_mask))
        return self.norm2(x + self.cross_att(x, memory, memory, src_mask))


class TinyTransformer(nn.Module):
    def __init__(self, vocab: int = 8000, n_heads: int = 4, width: int = 256):
        super().__init__()
        self.src_embed = nn.Embedding(vocab, width)
        self.tgt_embed = nn.Embedding(vocab, width)
        self.enc = MultiHeadAttention(n_heads, width)
        self.dec = DecoderLayer(n_heads, width)
        self.out = nn.Linear(width, vocab)

    def forward(self, src, tgt):
        src_m = source_mask(src)
        tgt_m = target_mask(tgt)
        s = self.src_embed(src)
        memory = s + self.enc(s, s, s, src_m)
        y = self.dec(memory, self.tgt_embed(tgt), src_m, tgt_m)
        return self.out(y)
