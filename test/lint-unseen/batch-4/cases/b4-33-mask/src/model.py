# case: b4-33-mask
# modelled-on: DanielePioGenovese/GPT-from-scratch https://github.com/DanielePioGenovese/GPT-from-scratch/commit/65984bb05f57f8736bc2c7484611eb6a35c27f15
# label: correct
# class: fixed
# pattern: the same GPT-2 style attention after the fix: the registered buffer is triu(ones, diagonal=1), sliced to the current length, made bool and filled with -inf; the scores are divided by sqrt(head_dim) inside the softmax call
# why: correct: the buffer is True strictly above the diagonal (the future), which masked_fill hides; the diagonal stays visible so no row is all -inf
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/DanielePioGenovese/GPT-from-scratch https://github.com/DanielePioGenovese/GPT-from-scratch/commit/65984bb05f57f8736bc2c7484611eb6a35c27f15 src/model.py
import torch
import torch.nn as nn

from src import config


class CausalHeads(nn.Module):
    def __init__(self, d_in, d_out, context_length, num_heads, dropout=0.1, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.num_heads = num_heads
        self.d_out = d_out
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=False)
        self.W_key = nn.Linear(d_in, d_out, bias=False)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, n, _ = x.shape
        keys = self.W_key(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        queries = self.W_query(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

        scores = queries @ keys.transpose(2, 3)  # (b, heads, n, n)
        mask_bool = self.mask.bool()[:n, :n]
        scores = scores.masked_fill(mask_bool, -torch.inf)

        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).contiguous().view(b, n, self.d_out)
        return self.out_proj(context)


def build_attention():
    return CausalHeads(
        config.EMBED_DIM, config.EMBED_DIM, config.MAX_LENGTH, config.NUM_HEADS, config.MHA_DROPOUT_RATE, config.QKV_BIAS
    )
