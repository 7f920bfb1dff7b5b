# case: t27t-07-clean
# modelled-on: qiuqiao/time-series-transformer-demo https://github.com/qiuqiao/time-series-transformer-demo/commit/6a649191d65685da6ce09870ee97eba4a4aaac92
# label: correct
# class: clean
# pattern: a causal Transformer for sensor time-series forecasting, trained with Lightning at precision="16-mixed" (train module); the model builds an additive causal mask (zeros filled with -inf where triu(ones, 1) is True) and hands it to every layer; the attention divides q @ k^T by sqrt(head_dim) + eps, clamps the scores to [-100, 100] and then fills scores.masked_fill(mask == float("-inf"), -1e4) before softmax(dim=-1)
# why: correct: mask == -inf is True exactly on the future keys of the additive mask, which is where the fill belongs (it is used as a boolean, not added); -1e4 fits in float16, so the fill is safe under autocast, and with the scores clamped to at most 100 in magnitude exp(-1e4 - 100) is 0; every row keeps its diagonal; the original added the -inf mask to the scores before (also right, no row is fully masked) and switched to this fill in a commit against NaNs, whose later fixes (dropping NaNs from the CSV files, standardising the features) point at the data; the original also adds 1e-6 to the weights after the softmax and renormalises, left out of this case (no attention rule covers it)
# looks-like: ATT002, ATT007
# source: https://github.com/qiuqiao/time-series-transformer-demo https://github.com/qiuqiao/time-series-transformer-demo/commit/6a649191d65685da6ce09870ee97eba4a4aaac92 transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention with a causal mask."""

    def __init__(self, hidden_dim, num_heads, dropout=0.1):
        super().__init__()
        assert hidden_dim % num_heads == 0, "hidden_dim must be divisible by num_heads"
        self.hidden_dim = hidden_dim
        self.num_heads = num_heads
        self.head_dim = hidden_dim // num_heads
        self.query = nn.Linear(hidden_dim, hidden_dim)
        self.key = nn.Linear(hidden_dim, hidden_dim)
        self.value = nn.Linear(hidden_dim, hidden_dim)
        self.output = nn.Linear(hidden_dim, hidden_dim)
        self.dropout = nn.Dropout(dropout)
        self.eps = 1e-6

    def forward(self, x, mask=None):
        B, T, _ = x.shape
        q = self.query(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)  # (B, H, T, hd)
        k = self.key(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.value(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / (math.sqrt(self.head_dim) + self.eps)
        scores = torch.clamp(scores, min=-100, max=100)  # keep the logits in a sane range
        if mask is not None:
            scores = scores.masked_fill(mask == float("-inf"), -1e4)
        attn = self.dropout(F.softmax(scores, dim=-1))

        context = torch.matmul(attn, v).transpose(1, 2).contiguous().view(B, T, self.hidden_dim)
        return self.output(context)


class TransformerLayer(nn.Module):
    def __init__(self, hidden_dim, num_heads, ff_dim, dropout=0.1):
        super().__init__()
        self.attention = MultiHeadAttention(hidden_dim, num_heads, dropout)
        self.norm1 = nn.LayerNorm(hidden_dim)
        self.ff = nn.Sequential(nn.Linear(hidden_dim, ff_dim), nn.GELU(), nn.Dropout(dropout),
                                nn.Linear(ff_dim, hidden_dim))
        self.norm2 = nn.LayerNorm(hidden_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        x = self.norm1(x + self.dropout(self.attention(x, mask)))
        return self.norm2(x + self.dropout(self.ff(x)))


class CausalTransformer(nn.Module):
    """Autoregressive forecaster: position t sees the inputs up to t."""

    def __init__(self, input_dim, hidden_dim, output_dim, num_layers, num_heads, ff_dim=None, dropout=0.1):
        super().__init__()
        ff_dim = ff_dim or 4 * hidden_dim
        self.input_projection = nn.Linear(input_dim, hidden_dim)
        pe = torch.zeros(5000, hidden_dim)
        pos = torch.arange(0, 5000, dtype=torch.float).unsqueeze(1)
        div = torch.exp(torch.arange(0, hidden_dim, 2).float() * (-math.log(10000.0) / hidden_dim))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))
        self.layers = nn.ModuleList([TransformerLayer(hidden_dim, num_heads, ff_dim, dropout) for _ in range(num_layers)])
        self.output_projection = nn.Linear(hidden_dim, output_dim)

    def get_attention_mask(self, seq_len):
        """Additive causal mask: 0 on visible keys, -inf on later ones, (1, 1, T, T)."""
        mask = torch.zeros(seq_len, seq_len)
        mask = mask.masked_fill(torch.triu(torch.ones(seq_len, seq_len), diagonal=1).bool(), float("-inf"))
        return mask.unsqueeze(0).unsqueeze(0)

    def forward(self, x):  # x: (B, T, input_dim)
        mask = self.get_attention_mask(x.size(1)).to(x.device)
        h = self.input_projection(x) + self.pe[:, : x.size(1)]
        for layer in self.layers:
            h = layer(h, mask)
        return self.output_projection(h)  # (B, T, output_dim)
