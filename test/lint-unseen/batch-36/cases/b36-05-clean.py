# case: b36-05-clean
# modelled-on: arshadshk/SAKT-pytorch https://github.com/arshadshk/SAKT-pytorch/commit/1d7355d1d6eebb638a636c9881c7728888b012de
# label: correct
# class: clean
# pattern: SAKT (self-attentive knowledge tracing, educational data): exercise embeddings are the queries, embeddings of past (exercise, answer) interactions plus positions are the keys and values, all projected and permuted to sequence-first (n, b, d); the attention is nn.MultiheadAttention (batch_first off) with attn_mask = torch.from_numpy(np.triu(np.ones((n, n)), k=1).astype('bool')) (the source's comment calls it a lower triangular mask); residual with the queries, layer norm, feed-forward, sigmoid output
# why: correct: nn.MultiheadAttention's boolean attn_mask means True = not allowed, and triu(..., k=1) is True strictly above the diagonal, so each exercise attends to the interactions at its own and earlier positions and never to later ones (the comment names the allowed part); the inputs are permuted to the (n, b, d) layout the module expects without batch_first; the module scales by the head width itself
# looks-like: ATT002, ATT008
# source: https://github.com/arshadshk/SAKT-pytorch https://github.com/arshadshk/SAKT-pytorch/commit/1d7355d1d6eebb638a636c9881c7728888b012de model.py
import numpy as np
import torch
import torch.nn as nn


class SAKT(nn.Module):
    """Self-attentive knowledge tracing: past (exercise, answer) interactions are the keys and values,
    the exercises are the queries; the output is the probability of a correct answer."""

    def __init__(self, ex_total, seq_len, dim, heads, dropout=0.2):
        super().__init__()
        self.seq_len = seq_len
        self.embd_in = nn.Embedding(2 * ex_total, embedding_dim=dim)  # interaction = exercise + answer
        self.embd_ex = nn.Embedding(ex_total, embedding_dim=dim)
        self.embd_pos = nn.Embedding(seq_len, embedding_dim=dim)
        self.proj = nn.ModuleList(nn.Linear(dim, dim) for _ in range(3))
        # sequence-first multi-head attention: inputs are (n, b, d)
        self.attn = nn.MultiheadAttention(embed_dim=dim, num_heads=heads, dropout=dropout)
        self.norm_attn = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.norm_ffn = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, interactions, exercises):
        n = interactions.shape[1]
        pos = self.embd_pos(torch.arange(n, device=interactions.device)).unsqueeze(0)
        inter = self.embd_in(interactions) + pos  # (b, n, d)
        value_in = self.proj[0](inter).permute(1, 0, 2)  # (n, b, d)
        key_in = self.proj[1](inter).permute(1, 0, 2)
        query_ex = self.proj[2](self.embd_ex(exercises)).permute(1, 0, 2)

        # strictly upper triangle as bool: an exercise may not look at later interactions
        future = torch.from_numpy(np.triu(np.ones((n, n)), k=1).astype("bool")).to(interactions.device)
        atn_out, _ = self.attn(query_ex, key_in, value_in, attn_mask=future)
        atn_out = self.norm_attn(query_ex + atn_out).permute(1, 0, 2)  # (b, n, d)

        ffn_out = self.norm_ffn(self.ffn(atn_out) + atn_out)
        return torch.sigmoid(self.out(ffn_out))


def demo(batch=64, ex_total=50, seq_len=12, dim=128):
    interactions = torch.randint(0, 2 * ex_total, (batch, seq_len))
    exercises = torch.randint(0, ex_total, (batch, seq_len))
    model = SAKT(ex_total, seq_len, dim, heads=8)
    return model(interactions, exercises).shape  # (batch, seq_len, 1)
