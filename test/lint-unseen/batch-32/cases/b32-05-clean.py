# case: b32-05-clean
# modelled-on: tulasinnd/decoder-only-transformer-from-scratch https://github.com/tulasinnd/decoder-only-transformer-from-scratch/commit/0382bf849b176a2a6504162b968a7b3a2fdacab5
# label: correct
# class: clean
# pattern: a decoder-only transformer written for experiments on heads, depth and pre/post norm: MHA projects X with four bias-free Linear(d_model, d_model) layers, reshapes Q, K, V to (batch, heads, seq, head_dim), divides torch.matmul(Q, K.transpose(-1, -2)) by math.sqrt(self.head_dim), builds causal_mask = torch.tril(torch.ones(seq, seq)) on the fly and fills causal_mask == 0 with -1e9, then, when a padding mask (1 = real token) is given, fills padding_mask == 0 with float('-inf') on the key axis, and takes torch.softmax(dim=-1)
# why: correct: tril is 1 on and below the diagonal, so == 0 selects the future; the padding mask is 1 on real tokens, so == 0 selects the padded keys; the repository trains on contiguous blocks of a token stream, so no padding mask is passed there, and for right-padded input every row keeps position 0, so the -inf fill never empties a row; the causal -1e9 is finite in float32; the scale is one head's width; transpose(-1, -2) swaps the last two axes of K
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/tulasinnd/decoder-only-transformer-from-scratch https://github.com/tulasinnd/decoder-only-transformer-from-scratch/commit/0382bf849b176a2a6504162b968a7b3a2fdacab5 model/decoder.py
import math

import torch
import torch.nn as nn


class MHA(nn.Module):
    def __init__(self, d_model, num_heads, attention_dropout):
        super().__init__()
        self.attn_dropout = nn.Dropout(attention_dropout)
        self.d_model = d_model
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.Wq_projection = nn.Linear(d_model, d_model, bias=False)
        self.Wk_projection = nn.Linear(d_model, d_model, bias=False)
        self.Wv_projection = nn.Linear(d_model, d_model, bias=False)
        self.Wo_projection = nn.Linear(d_model, d_model, bias=False)

    def forward(self, X, padding_mask=None):
        batch, seq_len, d_model = X.shape
        Q = self.Wq_projection(X).reshape(batch, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        K = self.Wk_projection(X).reshape(batch, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        V = self.Wv_projection(X).reshape(batch, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

        scores = torch.matmul(Q, K.transpose(-1, -2)) / math.sqrt(self.head_dim)  # keep dot products small
        causal_mask = torch.tril(torch.ones(seq_len, seq_len, device=X.device))  # future tokens are 0
        causal_mask = causal_mask.unsqueeze(0).unsqueeze(0)
        scores = scores.masked_fill(causal_mask == 0, -1e9)
        if padding_mask is not None:  # 1 = real token, 0 = padding
            mask = padding_mask.unsqueeze(1).unsqueeze(2).to(X.device)
            scores = scores.masked_fill(mask == 0, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.attn_dropout(weights)

        out = torch.matmul(weights, V)
        out = out.transpose(1, 2).reshape(batch, seq_len, d_model)
        return self.Wo_projection(out)


class FFN(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.linear1 = nn.Linear(d_model, 4 * d_model)
        self.act = nn.GELU()
        self.linear2 = nn.Linear(4 * d_model, d_model)

    def forward(self, X):
        return self.linear2(self.act(self.linear1(X)))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, attention_dropout, residual_dropout):
        super().__init__()
        self.mha = MHA(d_model, num_heads, attention_dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.ffn = FFN(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.dropout1 = nn.Dropout(residual_dropout)
        self.dropout2 = nn.Dropout(residual_dropout)

    def forward(self, X, padding_mask=None, post_norm=False):
        if post_norm:
            res1 = X + self.dropout1(self.mha(X, padding_mask=padding_mask))
            ln1_x = self.ln1(res1)
            return self.ln2(ln1_x + self.dropout2(self.ffn(ln1_x)))
        res1 = X + self.dropout1(self.mha(self.ln1(X), padding_mask=padding_mask))
        return res1 + self.dropout2(self.ffn(self.ln2(res1)))
