# case: b60-04-clean
# modelled-on: shmpanski/transformer-summarization https://github.com/shmpanski/transformer-summarization/commit/1b23f37f238a20ef8c21ba4aeafd92401bab070e
# label: correct
# class: clean
# pattern: an early (2018) Transformer for abstractive summarisation (a folder: the attention keeps one projection tensor per head, (heads, dim_m, d), tiles the inputs head-major along the batch axis, repeats the mask the same way and calls a dot-product core with the argument order (value, key, query); the model builds the decoder mask as `ones.tril(-1).transpose(0, 1)`, 1 on connections to later tokens, fills those with -inf, caches the encoder output between decoding steps of one batch and resets it for the next)
# why: correct: tril(-1) is the part strictly below the diagonal, and its transpose is the part strictly above it, i.e. the future; `masked_fill(illegal, -inf)` removes exactly those, the diagonal stays open; `mask.repeat(heads, 1, 1)` tiles in the same head-major order as the projected queries, keys and values, so every head gets its own batch row's mask; `key.transpose(1, 2)` on the 3-D (batch * heads, k_len, d) keys swaps exactly the last two axes, so the product is (batch * heads, q_len, k_len); the factor is dim_qk ** -0.5 of the per-head width and the softmax is over dim 2, the key axis of (batch * heads, q_len, k_len); the cached encoder output is the same for every decoding step of a batch
# looks-like: ATT001, ATT002, ATT005, ATT008
# source: https://github.com/shmpanski/transformer-summarization https://github.com/shmpanski/transformer-summarization/commit/1b23f37f238a20ef8c21ba4aeafd92401bab070e nn/modules/transformer.py
import torch
import torch.nn as nn

from summ.attention import StackedHeadsAttention


class PositionWise(nn.Module):
    def __init__(self, dim_m, dim_i, dropout):
        super().__init__()
        self.inner, self.outer = nn.Linear(dim_m, dim_i), nn.Linear(dim_i, dim_m)
        self.drop, self.norm = nn.Dropout(dropout), nn.LayerNorm(dim_m, eps=1e-12)

    def forward(self, x):
        return self.norm(x + self.drop(self.outer(torch.relu(self.inner(x)))))


class EncoderLayer(nn.Module):
    def __init__(self, dim_m, dim_qk, dim_v, n_heads, dim_i, dropout):
        super().__init__()
        self.attn, self.ff = StackedHeadsAttention(n_heads, dim_m, dim_qk, dim_v, dropout), PositionWise(dim_m, dim_i, dropout)

    def forward(self, x):
        return self.ff(self.attn(x, x, x))


class DecoderLayer(nn.Module):
    def __init__(self, dim_m, dim_qk, dim_v, n_heads, dim_i, dropout):
        super().__init__()
        self.self_attn = StackedHeadsAttention(n_heads, dim_m, dim_qk, dim_v, dropout)
        self.cross_attn = StackedHeadsAttention(n_heads, dim_m, dim_qk, dim_v, dropout)
        self.ff = PositionWise(dim_m, dim_i, dropout)

    def forward(self, x, memory, illegal):
        x = self.self_attn(x, x, x, illegal)
        return self.ff(self.cross_attn(value=memory, key=memory, query=x))


class Summarizer(nn.Module):
    def __init__(self, embed: nn.Module, vocab_size, n_layers=6, dim_m=512, dim_qk=64, dim_v=64, n_heads=8,
                 dim_i=2048, dropout=0.1):
        super().__init__()
        self.embed = embed   # token embedding plus positions, (batch, len) -> (batch, len, dim_m)
        self.encoders = nn.ModuleList(EncoderLayer(dim_m, dim_qk, dim_v, n_heads, dim_i, dropout) for _ in range(n_layers))
        self.decoders = nn.ModuleList(DecoderLayer(dim_m, dim_qk, dim_v, n_heads, dim_i, dropout) for _ in range(n_layers))
        self.out = nn.Linear(dim_m, vocab_size)
        self.memory = None   # encoder output, computed once per batch

    def forget(self):
        self.memory = None

    @staticmethod
    def future_mask(ids):
        bsz, n = ids.shape
        later = torch.ones(n, n, device=ids.device).tril(-1).transpose(0, 1)
        return later.repeat(bsz, 1, 1).bool()

    def forward(self, src, tgt):
        if self.memory is None:
            h = self.embed(src)
            for layer in self.encoders:
                h = layer(h)
            self.memory = h
        y = self.embed(tgt)
        illegal = self.future_mask(tgt)
        for layer in self.decoders:
            y = layer(y, self.memory, illegal)
        return self.out(y)

    @torch.no_grad()
    def greedy(self, src, bos_id, steps):
        self.forget()
        seq = torch.full((src.size(0), 1), bos_id, dtype=torch.long, device=src.device)
        for _ in range(steps):
            nxt = self.forward(src, seq)[:, -1, :].argmax(dim=-1, keepdim=True)
            seq = torch.cat((seq, nxt), dim=-1)
        self.forget()
        return seq
