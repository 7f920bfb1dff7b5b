# case: b41-03-clean
# modelled-on: elith-co-jp/book-llm-from-scratch https://github.com/elith-co-jp/book-llm-from-scratch/commit/008b02e7ed9f2a9a0628fb97e9cfda9a33b0fa11
# label: correct
# class: clean
# pattern: textbook encoder-decoder Transformer (a folder: the mask helpers, the attention and blocks, and the training step): every head is its own module with its own q/k/v Linear layers on 3-D (batch, length, d_k) tensors, scores are torch.bmm(q, k^T) / d_k ** 0.5 and the mask is a boolean "True = hide" tensor filled with -inf before the softmax over the keys; the training step builds the padding mask as tokens == pad (True = pad) and the future mask as triu(..., diagonal=1) == 1, and merges the two for the decoder with + on booleans (a logical or)
# why: correct: the masks mean True = masked, which is exactly what masked_fill(mask, -inf) needs; the sum of two boolean masks is their union, so a decoder query hides both padded and future keys; the padding mask has shape (batch, 1, length) and broadcasts over the query rows; every query keeps at least itself (a real first token), so no row is all -inf; the scale uses d_k, the width of one head's keys
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/elith-co-jp/book-llm-from-scratch https://github.com/elith-co-jp/book-llm-from-scratch/commit/008b02e7ed9f2a9a0628fb97e9cfda9a33b0fa11 llm_from_scratch/transformer/attention.py
import torch
from torch import Tensor, nn


class ScaledAttention(nn.Module):
    def forward(self, q: Tensor, k: Tensor, v: Tensor, hide: Tensor | None = None) -> Tensor:
        # q: (batch, q_len, d_k), k: (batch, k_len, d_k), hide: True where a key must be ignored
        d_k = q.size(-1)
        scores = torch.bmm(q, k.transpose(1, 2)) / (d_k**0.5)
        if hide is not None:
            scores = scores.masked_fill(hide, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        return torch.bmm(weights, v)


class Head(nn.Module):
    def __init__(self, d_model: int, d_k: int, d_v: int):
        super().__init__()
        self.to_q = nn.Linear(d_model, d_k)
        self.to_k = nn.Linear(d_model, d_k)
        self.to_v = nn.Linear(d_model, d_v)
        self.attend = ScaledAttention()

    def forward(self, query: Tensor, key: Tensor, value: Tensor, hide: Tensor | None = None) -> Tensor:
        return self.attend(self.to_q(query), self.to_k(key), self.to_v(value), hide=hide)


class MultiHead(nn.Module):
    def __init__(self, n_heads: int, d_model: int, d_k: int, d_v: int):
        super().__init__()
        self.heads = nn.ModuleList(Head(d_model, d_k, d_v) for _ in range(n_heads))
        self.merge = nn.Linear(n_heads * d_v, d_model)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, hide: Tensor | None = None) -> Tensor:
        return self.merge(torch.cat([head(query, key, value, hide=hide) for head in self.heads], dim=-1))


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int):
        super().__init__()
        self.self_attn = MultiHead(n_heads, d_model, d_model // n_heads, d_model // n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x: Tensor, src_hide: Tensor | None = None) -> Tensor:
        x = self.norm1(x + self.self_attn(x, x, x, hide=src_hide))
        return self.norm2(x + self.ff(x))


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int):
        super().__init__()
        self.self_attn = MultiHead(n_heads, d_model, d_model // n_heads, d_model // n_heads)
        self.cross_attn = MultiHead(n_heads, d_model, d_model // n_heads, d_model // n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(3))

    def forward(self, y: Tensor, memory: Tensor, tgt_hide: Tensor | None = None, src_hide: Tensor | None = None) -> Tensor:
        y = self.norms[0](y + self.self_attn(y, y, y, hide=tgt_hide))
        y = self.norms[1](y + self.cross_attn(y, memory, memory, hide=src_hide))
        return self.norms[2](y + self.ff(y))


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab: int, tgt_vocab: int, d_model: int = 128, n_heads: int = 4, depth: int = 2):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.tgt_embed = nn.Embedding(tgt_vocab, d_model)
        self.encoder = nn.ModuleList(EncoderLayer(d_model, n_heads, 4 * d_model) for _ in range(depth))
        self.decoder = nn.ModuleList(DecoderLayer(d_model, n_heads, 4 * d_model) for _ in range(depth))
        self.out = nn.Linear(d_model, tgt_vocab, bias=False)

    def forward(self, src: Tensor, tgt: Tensor, src_hide: Tensor, tgt_hide: Tensor, cross_hide: Tensor) -> Tensor:
        memory = self.src_embed(src)
        for layer in self.encoder:
            memory = layer(memory, src_hide)
        y = self.tgt_embed(tgt)
        for layer in self.decoder:
            y = layer(y, memory, tgt_hide=tgt_hide, src_hide=cross_hide)
        return self.out(y)
