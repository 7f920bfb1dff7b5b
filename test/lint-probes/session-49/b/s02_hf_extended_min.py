import math
import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, attention_mask):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dk)
        ext = attention_mask[:, None, None, :].to(scores.dtype)
        ext = (1.0 - ext) * torch.finfo(scores.dtype).min
        probs = (scores + ext).softmax(-1)
        return (probs @ v).transpose(1, 2).reshape(B, T, -1)


def run(model, tokenizer, texts):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    x = model.embed(enc["input_ids"])
    return model.attn(x, enc["attention_mask"])
