# case: b21-02-clean
# modelled-on: RakiDelmoro/Transformer-OCR https://github.com/RakiDelmoro/Transformer-OCR/commit/c9d2cc7bc07be6a831d797353c3bdbd71b7af590
# label: correct
# class: clean
# pattern: a text-recognition decoder (RoBERTa-style) whose self-attention adds relative-distance scores (two einsums against a distance embedding) to q @ k^T, divides the sum by sqrt(per-head width), then adds an attention mask and softmaxes over the keys; the mask is built in another module from torch.triu(ones).transpose(1, 0) turned additive with masked_fill(== 0, -inf).masked_fill(== 1, 0.0); the model builds it per target length and passes it down the layers
# why: correct: triu(ones).T is the lower triangle, so the additive mask is 0 on and below the diagonal and -inf above it (each target token sees itself and the earlier ones, every row keeps its diagonal); adding an additive mask before the softmax is how such masks are used; the per-head width is embedding / heads
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/RakiDelmoro/Transformer-OCR https://github.com/RakiDelmoro/Transformer-OCR/commit/c9d2cc7bc07be6a831d797353c3bdbd71b7af590 model/roberta_decoder.py
import math

import torch
import torch.nn as nn

from ocrdec.masks import square_subsequent_mask


class RelativeSelfAttention(nn.Module):
    def __init__(self, width, n_heads, max_len, p_drop=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.head_width = int(width / n_heads)
        self.all_width = self.n_heads * self.head_width
        self.max_len = max_len
        self.query = nn.Linear(width, self.all_width)
        self.key = nn.Linear(width, self.all_width)
        self.value = nn.Linear(width, self.all_width)
        self.distance = nn.Embedding(2 * max_len - 1, self.head_width)
        self.dropout = nn.Dropout(p_drop)

    def split(self, x):
        x = x.view(x.size()[:-1] + (self.n_heads, self.head_width))
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden, attention_mask=None):
        q = self.split(self.query(hidden))
        k = self.split(self.key(hidden))
        v = self.split(self.value(hidden))

        scores = torch.matmul(q, k.transpose(-2, -1))

        q_len, k_len = q.shape[2], k.shape[2]
        left = torch.arange(q_len, dtype=torch.long, device=hidden.device).view(-1, 1)
        right = torch.arange(k_len, dtype=torch.long, device=hidden.device).view(1, -1)
        rel = self.distance(left - right + self.max_len - 1).type(q.dtype)
        scores = scores + torch.einsum("bhld,lrd->bhlr", q, rel) + torch.einsum("bhrd,lrd->bhlr", k, rel)

        scores = scores / math.sqrt(self.head_width)
        if attention_mask is not None:
            scores = scores + attention_mask

        probs = self.dropout(nn.functional.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.size()[:-2] + (self.all_width,))


class DecoderLayer(nn.Module):
    def __init__(self, width, n_heads, max_len):
        super().__init__()
        self.attn = RelativeSelfAttention(width, n_heads, max_len)
        self.norm = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, hidden, attention_mask):
        hidden = self.norm(hidden + self.attn(hidden, attention_mask))
        return hidden + self.ff(hidden)


class TextDecoder(nn.Module):
    def __init__(self, vocab, width=256, n_heads=8, depth=4, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList([DecoderLayer(width, n_heads, max_len) for _ in range(depth)])
        self.out = nn.Linear(width, vocab)

    def forward(self, target_ids):
        causal = square_subsequent_mask(target_ids.shape[1])
        hidden = self.embed(target_ids)
        for layer in self.layers:
            hidden = layer(hidden, causal)
        return self.out(hidden)
