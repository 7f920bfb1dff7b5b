# case: t30w-04-clean
# modelled-on: xiao-nan-liu/workspace https://github.com/xiao-nan-liu/workspace/commit/ab130eb657711be59cf8a85ea7bb60a8f5e2a0dc
# label: correct
# class: clean
# pattern: a hand-written Chinese GPT for question answering split over modules: the dataset returns the tokenizer's attention_mask (1 = token, 0 = padding); a mask module turns it into a pad mask with attention_mask.eq(0) expanded over the query rows and builds the causal mask as np.triu(ones, k=1) in uint8; the decoder combines them with torch.gt(pad + subsequence, 0) (or subsequence.bool() when no mask is given), repeats it over the heads, and the attention fills score.masked_fill_(mask, -1e10) before nn.Softmax(dim=-1)
# why: correct: the keep mask from the tokenizer is inverted once, by eq(0), so the pad mask is True on padding keys; triu(k=1) is 1 on the future keys; their sum is positive wherever either says block, so gt(..., 0) is the union of the two blocking masks, which masked_fill_ fills; the diagonal is never blocked for a real token (right padding), and -1e10 is finite in float32 and gives zero weight
# looks-like: ATT002, ATT007
# source: https://github.com/xiao-nan-liu/workspace https://github.com/xiao-nan-liu/workspace/commit/ab130eb657711be59cf8a85ea7bb60a8f5e2a0dc ML/GPT/Transformer/model/Decoder.py
import math

import torch
from torch import nn

from gptqa.attention import MultiHeadAttention
from gptqa.masks import get_attn_pad_mask, get_attn_subsequence_mask


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_pos: int) -> None:
        super().__init__()
        pe = torch.zeros(max_pos, d_model)
        pos = torch.arange(max_pos).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def forward(self, ids):
        return self.pe[: ids.size(1)].unsqueeze(0)


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, d_k, d_v):
        super().__init__()
        self.attention = MultiHeadAttention(d_model, n_heads, d_k, d_v)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, attention_mask):
        x, attn = self.attention(x, attention_mask)
        return self.norm(x + self.ffn(x)), attn


class Decoder(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, d_k, d_v, vocab_size, max_pos, n_layers, device):
        super().__init__()
        self.device = device
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.pos_encoding = PositionalEncoding(d_model, max_pos)
        self.layers = nn.ModuleList([DecoderLayer(d_model, n_heads, d_ff, d_k, d_v) for _ in range(n_layers)])

    def forward(self, inputs, attention_mask=None):
        outputs = self.embedding(inputs) + self.pos_encoding(inputs)
        subsequence_mask = get_attn_subsequence_mask(inputs, self.device)  # 1 = future key
        if attention_mask is not None:
            pad_mask = get_attn_pad_mask(attention_mask)                  # True = padding key
            attention_mask = torch.gt(pad_mask + subsequence_mask, 0)
        else:
            attention_mask = subsequence_mask.bool()
        attns = []
        for layer in self.layers:
            outputs, attn = layer(outputs, attention_mask)
            attns.append(attn)
        return outputs, attns


class GPTModel(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, d_k, d_v, vocab_size, max_pos, n_layers, device):
        super().__init__()
        self.decoder = Decoder(d_model, n_heads, d_ff, d_k, d_v, vocab_size, max_pos, n_layers, device)
        self.projection = nn.Linear(d_model, vocab_size)

    def forward(self, inputs, attention_mask=None):
        outputs, attns = self.decoder(inputs, attention_mask)
        return self.projection(outputs), attns
