# case: t10d-08-scale
# modelled-on: makeesyai/makeesy-deep-learning https://github.com/makeesyai/makeesy-deep-learning/commit/318881830eacbe8d94ce4802baea8514d3925e7d
# label: buggy
# class: real-bug
# pattern: a video-course seq2seq transformer: the multi-head attention module in its own package scales the queries and the keys separately before the dot product, each divided by (self.heads_dim ** 1 / float(4)) under a comment saying "q/root_forth(head_dim)", masks positions where the mask is 1 with -1e9 and softmaxes over the last axis; an encoder layer in another module uses it with a padding mask built from the source tokens
# why: buggy: ** binds tighter than /, so heads_dim ** 1 / float(4) is heads_dim / 4, not the fourth root the comment names; q and k are each divided by heads_dim / 4, the scores by heads_dim**2 / 16 (16 for a head of 16, 4096 for a head of 256) instead of sqrt(heads_dim); the module's earlier, commented-out after-product variant has the same slip; no fix was found; the expectation is on the first of the two scaling lines (the query), as the corpus places a query-side scale
# source: https://github.com/makeesyai/makeesy-deep-learning https://github.com/makeesyai/makeesy-deep-learning/commit/318881830eacbe8d94ce4802baea8514d3925e7d seq2seq/attention.py
import torch
from torch import nn

from seq2seq.attention import MultiheadedAttention

PAD = 0


def padding_mask(tokens):
    # (bs, seq) -> (bs, 1, 1, seq), 1 on padding
    return (tokens == PAD).long().unsqueeze(1).unsqueeze(2)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, ff_size=2048, dropout=0.1):
        super().__init__()
        self.self_attn = MultiheadedAttention(d_model=d_model, heads=num_heads)
        self.attn_norm = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, ff_size), nn.ReLU(), nn.Dropout(dropout), nn.Linear(ff_size, d_model))
        self.final_norm = nn.LayerNorm(d_model)
        self.do = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        x = x + self.do(self.self_attn(self.attn_norm(x), mask=mask))
        return x + self.do(self.ff(self.final_norm(x)))


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=512, num_heads=2, num_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, num_heads) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(d_model)

    def forward(self, tokens):
        mask = padding_mask(tokens)
        x = self.embed(tokens) * d_model_scale(self.embed.embedding_dim)
        for layer in self.layers:
            x = layer(x, mask)
        return self.norm(x)


def d_model_scale(d_model):
    return torch.tensor(float(d_model)).sqrt()
