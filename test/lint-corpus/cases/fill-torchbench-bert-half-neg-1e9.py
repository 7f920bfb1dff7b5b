# case: fill-torchbench-bert-half-neg-1e9
# modelled-on: pytorch/benchmark https://github.com/pytorch/benchmark/pull/794
# label: buggy
# pattern: BERT_pytorch's single-head Attention fills mask == 0 with -1e9; the benchmark harness converts the model with .half() for fp16 inference
# why: in a float16 scores tensor -1e9 overflows (max 65504), so masked_fill fails at fp16 inference
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    """Compute 'Scaled Dot Product Attention'."""

    def forward(self, query, key, value, mask=None, dropout=None):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)  # expect: ATT007
        p_attn = F.softmax(scores, dim=-1)
        if dropout is not None:
            p_attn = dropout(p_attn)
        return torch.matmul(p_attn, value), p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h: int, d_model: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_k = d_model // h
        self.h = h
        self.linear_layers = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(3)])
        self.output_linear = nn.Linear(d_model, d_model)
        self.attention = Attention()
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        batch_size = query.size(0)
        query, key, value = [
            l(x).view(batch_size, -1, self.h, self.d_k).transpose(1, 2)
            for l, x in zip(self.linear_layers, (query, key, value))
        ]
        x, _ = self.attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(batch_size, -1, self.h * self.d_k)
        return self.output_linear(x)


class Model:
    """Benchmark harness: eval in fp16 on the GPU."""

    def __init__(self, bert: nn.Module, device: str = "cuda"):
        self.model = bert.to(device).half().eval()
        self.device = device

    def eval(self, tokens: torch.Tensor, segment: torch.Tensor):
        mask = (tokens > 0).unsqueeze(1).repeat(1, tokens.size(1), 1).unsqueeze(1)  # (B, 1, S, S)
        with torch.no_grad():
            return self.model(tokens.to(self.device), segment.to(self.device), mask.to(self.device))
