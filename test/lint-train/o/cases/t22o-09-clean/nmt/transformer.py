# case: t22o-09-clean
# modelled-on: KevinPan2021/Machine-Translation-Transformer https://github.com/KevinPan2021/Machine-Translation-Transformer/commit/bda2a79f9f41e21db52b14f9cfb61aa0672cec22
# label: correct
# class: clean
# pattern: a Chinese-English translation transformer trained and evaluated under torch.cuda.amp.autocast(dtype=torch.float16) in another module (training.py); the attention picks its fill by dtype, inf = -1e9 if scores are float32 else -1e4, and applies masked_fill_(mask == 0, inf) to a (B, 1, L) padding keep mask (src != pad) or a (B, L, L) mask that ANDs the target keep mask with a boolean tril, then softmaxes with an nn.Softmax(dim=-1) built in __init__
# why: correct: under autocast the scores are float16 and get -1e4, which float16 can hold and which still zeroes the masked keys after the softmax; float32 scores get -1e9; mask == 0 selects the padding and the future, since both masks are True where attention is allowed
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/KevinPan2021/Machine-Translation-Transformer https://github.com/KevinPan2021/Machine-Translation-Transformer/commit/bda2a79f9f41e21db52b14f9cfb61aa0672cec22 transformer.py
import math

import torch
import torch.nn as nn


class MultiheadAttention(nn.Module):
    def __init__(self, d_model, dropout, num_heads):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.attn_softmax = nn.Softmax(dim=-1)
        self.w_0 = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        b = q.shape[0]
        q = self.w_q(q).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        k = self.w_k(k).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        v = self.w_v(v).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        out = self.self_attention(q, k, v, mask=mask)
        return self.w_0(out.transpose(1, 2).contiguous().view(b, -1, self.d_model))

    def self_attention(self, q, k, v, mask=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            mask = mask.unsqueeze(1)  # (B, 1, L) -> (B, 1, 1, L); (B, L, L) -> (B, 1, L, L)
            inf = -1e9 if scores.dtype == torch.float32 else -1e4
            scores = scores.masked_fill_(mask == 0, inf)
        weights = self.dropout(self.attn_softmax(scores))
        return torch.matmul(weights, v)


class Translator(nn.Module):
    def __init__(self, vocab_size, pad_ind, seq_len, d_model=512, num_heads=8, dropout=0.1):
        super().__init__()
        self.pad_ind = pad_ind
        self.seq_len = seq_len
        self.src_embedding = nn.Embedding(vocab_size, d_model)
        self.trg_embedding = nn.Embedding(vocab_size, d_model)
        self.self_attn = MultiheadAttention(d_model, dropout, num_heads)
        self.dec_self_attn = MultiheadAttention(d_model, dropout, num_heads)
        self.cross_attn = MultiheadAttention(d_model, dropout, num_heads)
        self.output_linear = nn.Linear(d_model, vocab_size)
        self.log_softmax = nn.LogSoftmax(dim=-1)

    def generate_mask(self, src_input):
        return (src_input != self.pad_ind).unsqueeze(1)  # (B, 1, L)

    def generate_tril_mask(self, trg_input):
        d_mask = (trg_input != self.pad_ind).unsqueeze(1)  # (B, 1, L)
        nopeak = torch.tril(torch.ones([1, self.seq_len, self.seq_len], dtype=torch.bool)).to(trg_input.device)
        return d_mask & nopeak  # (B, L, L)

    def forward(self, src_input, trg_input):
        e_mask = self.generate_mask(src_input)
        d_mask = self.generate_tril_mask(trg_input)
        src = self.src_embedding(src_input)
        trg = self.trg_embedding(trg_input)
        memory = src + self.self_attn(src, src, src, mask=e_mask)
        h = trg + self.dec_self_attn(trg, trg, trg, mask=d_mask)
        h = h + self.cross_attn(h, memory, memory, mask=e_mask)
        return self.log_softmax(self.output_linear(h))
