import math

import torch
from torch import nn

from modeling_utils import get_extended_attention_mask


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, hidden, attention_mask):
        B, T, _ = hidden.shape
        q, k, v = self.qkv(hidden).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dk)
        scores = scores + get_extended_attention_mask(attention_mask, scores.dtype)
        return (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, -1)


def forward_batch(layer, tokenizer, emb, texts):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    return layer(emb(enc["input_ids"]), enc["attention_mask"])
