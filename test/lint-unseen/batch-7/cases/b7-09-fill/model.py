# case: b7-09-fill
# modelled-on: neetmehta/Transformer-from-scratch-in-pytorch https://github.com/neetmehta/Transformer-from-scratch-in-pytorch/commit/96ece7c2c227db33b0456fe51bb43b3b33d4cd63
# label: correct
# class: fixed
# pattern: a from-scratch encoder-decoder transformer for translation: the dataset returns padding masks (ids == pad, True = padding), the training script combines them over both the query and the key axis (src_mask.unsqueeze(2) | src_mask.unsqueeze(3), the same with a causal triu mask for the decoder) and passes boolean masks (True = blocked) to a multi-head module that fills them with -1e9 before the softmax; training runs in float32
# why: correct (after the fix commit "fixed training"): a padded query row whose keys are all blocked gets the same finite -1e9 everywhere and a uniform softmax instead of NaN; the loss ignores those positions, and -1e9 fits float32, in which the script trains
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/neetmehta/Transformer-from-scratch-in-pytorch https://github.com/neetmehta/Transformer-from-scratch-in-pytorch/commit/96ece7c2c227db33b0456fe51bb43b3b33d4cd63 model.py
import math

import torch.nn as nn


class MultiheadAttention(nn.Module):
    def __init__(self, d_model, num_heads, p_d=0.1):
        super().__init__()
        assert d_model % num_heads == 0, "d_model not divisible by num_heads"
        self.h, self.d_k = num_heads, d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, q, k, v, mask=None):
        B, q_len, _ = q.shape
        k_len = k.shape[1]
        queries = self.w_q(q).view(B, q_len, self.h, self.d_k).transpose(1, 2)  # (B, h, Lq, dk)
        keys = self.w_k(k).view(B, k_len, self.h, self.d_k).transpose(1, 2)  # (B, h, Lk, dk)
        values = self.w_v(v).view(B, k_len, self.h, self.d_k).transpose(1, 2)
        attention_weights = (queries @ keys.transpose(-2, -1)) / math.sqrt(self.d_k)  # (B, h, Lq, Lk)
        if mask is not None:
            # boolean mask, True = blocked
            attention_weights = attention_weights.masked_fill(mask, -1e9)
        attention_weights = attention_weights.softmax(dim=-1)
        out = (attention_weights @ values).transpose(1, 2).reshape(B, q_len, -1)
        return self.w_o(out), attention_weights


class EncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.attn = MultiheadAttention(d_model, num_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.n1, self.n2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, self_attn_mask):
        x = self.n1(x + self.attn(x, x, x, self_attn_mask)[0])
        return self.n2(x + self.ff(x))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, num_heads)
        self.cross_attn = MultiheadAttention(d_model, num_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.n1, self.n2, self.n3 = nn.LayerNorm(d_model), nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, memory, self_attn_mask, cross_attn_mask):
        x = self.n1(x + self.self_attn(x, x, x, self_attn_mask)[0])
        x = self.n2(x + self.cross_attn(x, memory, memory, cross_attn_mask)[0])
        return self.n3(x + self.ff(x))


class Transformer(nn.Module):
    def __init__(self, vocab_size, d_model=512, num_heads=8, d_ff=2048, n_layers=6):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.ModuleList([EncoderLayer(d_model, num_heads, d_ff) for _ in range(n_layers)])
        self.decoder = nn.ModuleList([DecoderLayer(d_model, num_heads, d_ff) for _ in range(n_layers)])
        self.proj = nn.Linear(d_model, vocab_size)

    def forward(self, src, tgt, enc_self_attn_mask, dec_self_attn_mask, dec_cross_attn_mask):
        memory = self.embed(src)
        for layer in self.encoder:
            memory = layer(memory, enc_self_attn_mask)
        x = self.embed(tgt)
        for layer in self.decoder:
            x = layer(x, memory, dec_self_attn_mask, dec_cross_attn_mask)
        return self.proj(x)
