# case: b60-09-clean
# modelled-on: siddhantmedar/Transformer-LLM-From-Scratch https://github.com/siddhantmedar/Transformer-LLM-From-Scratch/commit/5499fe830dbaefcba02aef611b5fd65c0e05b43d
# label: correct
# class: clean
# pattern: a small decoder-only language model trained on text with a BPE tokenizer (a folder: the attention builds `tril(ones(T, T))` on every call and fills the scores with float('-inf') where it is 0, then softmax over the last axis; post-norm residual blocks; the training script runs the forward pass under torch.cuda.amp autocast (float16) with a GradScaler, pads the rare short window with the [PAD] id that the loss ignores, and samples by re-running the last block_size tokens)
# why: correct: -inf is representable in float16, so the fill stays a true -inf under autocast (unlike a large finite constant it cannot overflow), and each query row keeps its diagonal, so no row is all -inf; `== 0` on the lower triangle selects exactly the future positions; the scale is sqrt of the per-head width; padding only ever sits at the end of a window, after every real token, so the causal mask already hides it from real queries; sampling re-runs the whole window, so the square mask fits
# looks-like: ATT002, ATT007
# source: https://github.com/siddhantmedar/Transformer-LLM-From-Scratch https://github.com/siddhantmedar/Transformer-LLM-From-Scratch/commit/5499fe830dbaefcba02aef611b5fd65c0e05b43d gpt.py
import math

import torch
import torch.nn as nn


class SinusoidalEmbedding(nn.Module):
    def __init__(self, vocab, d_model, max_len, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        pos = torch.arange(max_len).unsqueeze(1)
        freq = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        table = torch.zeros(max_len, d_model)
        table[:, 0::2], table[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)
        self.register_buffer("table", table)
        self.drop = nn.Dropout(dropout)

    def forward(self, ids):
        return self.drop(self.tok(ids) + self.table[: ids.size(1)].unsqueeze(0))


class CausalAttention(nn.Module):
    """Post-norm masked self-attention (no output projection, as in the original)."""

    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.qkv = nn.ModuleList(nn.Linear(d_model, d_model) for _ in range(3))
        self.norm, self.drop = nn.LayerNorm(d_model), nn.Dropout(dropout)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = (lin(x).view(b, t, self.n_heads, self.d_head).transpose(1, 2) for lin in self.qkv)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)
        keep = torch.tril(torch.ones(t, t, device=x.device))[None, None]
        scores = scores.masked_fill(keep == 0, float("-inf"))
        mixed = (self.drop(torch.softmax(scores, dim=-1)) @ v).transpose(1, 2).contiguous().view(b, t, d)
        return self.norm(x + mixed)


class Layer(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.attn = CausalAttention(d_model, n_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model), nn.Dropout(dropout))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.attn(x)
        return self.norm(x + self.ff(x))


class TextLM(nn.Module):
    def __init__(self, n_layers, vocab, d_model, n_heads, max_len, dropout=0.1):
        super().__init__()
        self.embed = SinusoidalEmbedding(vocab, d_model, max_len, dropout)
        self.layers = nn.ModuleList(Layer(d_model, n_heads, dropout) for _ in range(n_layers))
        self.norm, self.head = nn.LayerNorm(d_model), nn.Linear(d_model, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x))
