# case: t43dd-23-clean
# modelled-on: Elliot-Sones/miniGPT https://github.com/Elliot-Sones/miniGPT/commit/3b8f898f265014ac398eb128932d0f5938ad7c72
# label: correct
# class: clean
# pattern: a masked-language-model encoder whose self-attention takes a parameter NAMED `key_padding_mask` but documents it as a keep mask ("True for tokens to keep OR 1/0"); the attention turns it into `keep_mask = key_padding_mask != 0` (or uses it as is when boolean), adds two axes and fills `~keep_mask` with -inf before the softmax over the keys; the encoder passes `key_padding_mask=keep_mask` with `keep_mask` returned by a small no-grad helper method (`mask.bool()` unless already boolean), and the training step in another module builds that mask as `(input_ids != 0).float()` (1 = token, 0 = PAD)
# why: correct: despite PyTorch's naming convention (key_padding_mask True = padding), this code's `key_padding_mask` is True/1 on real tokens everywhere it comes from, and the code says so by binding it to `keep_mask`; `~keep_mask` therefore selects the padding that gets -inf; every sequence has at least one token, so no row is all -inf; scale 1/sqrt(head_dim)
# looks-like: ATT002, ATT007
# source: https://github.com/Elliot-Sones/miniGPT https://github.com/Elliot-Sones/miniGPT/commit/3b8f898f265014ac398eb128932d0f5938ad7c72 encoder_transformer/encode.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PaddedSelfAttention(nn.Module):
    """x: [B, S, D]; key_padding_mask: [B, S], True (or 1) for tokens to keep."""

    def __init__(self, embed_dim, num_heads, dropout):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, key_padding_mask):
        B, S, D = x.shape
        q = self.q_proj(x).view(B, S, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, S, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, S, self.num_heads, self.head_dim).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        if key_padding_mask.dtype != torch.bool:
            keep_mask = key_padding_mask != 0
        else:
            keep_mask = key_padding_mask
        keep_mask = keep_mask.unsqueeze(1).unsqueeze(1)
        scores = scores.masked_fill(~keep_mask, float("-inf"))
        weights = self.drop(F.softmax(scores, dim=-1))
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(B, S, D)
        return self.out_proj(out)


class EncoderLayer(nn.Module):
    def __init__(self, embed_dim, num_heads, hidden, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(embed_dim)
        self.attn = PaddedSelfAttention(embed_dim, num_heads, dropout)
        self.ln2 = nn.LayerNorm(embed_dim)
        self.ff = nn.Sequential(nn.Linear(embed_dim, hidden), nn.GELU(), nn.Linear(hidden, embed_dim))

    def forward(self, x, key_padding_mask):
        x = x + self.attn(self.ln1(x), key_padding_mask=key_padding_mask)
        return x + self.ff(self.ln2(x))


class TextEncoder(nn.Module):
    def __init__(self, vocab, embed_dim=256, num_heads=4, layers=4, hidden=1024, max_len=512, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, embed_dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, embed_dim)
        self.layers = nn.ModuleList(EncoderLayer(embed_dim, num_heads, hidden, dropout) for _ in range(layers))
        self.norm = nn.LayerNorm(embed_dim)

    @torch.no_grad()
    def _as_keep_mask(self, mask):
        # bool or 0/1 in, bool out: True means "keep"
        return mask.bool() if mask.dtype != torch.bool else mask

    def forward(self, src_input_ids, src_attention_mask):
        # src_attention_mask: [B, S], 1/True = token, 0/False = PAD
        keep_mask = self._as_keep_mask(src_attention_mask)
        x = self.tok(src_input_ids) + self.pos(torch.arange(src_input_ids.shape[1], device=src_input_ids.device))
        for layer in self.layers:
            x = layer(x, key_padding_mask=keep_mask)
        return self.norm(x) * keep_mask.unsqueeze(-1)
