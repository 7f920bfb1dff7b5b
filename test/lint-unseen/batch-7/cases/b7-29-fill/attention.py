# case: b7-29-fill
# modelled-on: ZeroToMax-ZYZ/transformer-pytorch-main https://github.com/ZeroToMax-ZYZ/transformer-pytorch-main/commit/60b21b10004e633cb1ff900572788a6ab3fa44a1
# label: buggy
# class: real-bug
# pattern: an annotated-transformer style reproduction for WMT14: attention() divides q k^T by sqrt(d_k) and fills masked_fill(mask == 0, -1e9), MultiHeadedAttention unsqueezes the keep mask for the heads; the training script in another file runs the forward pass under torch.cuda.amp.autocast with a GradScaler whenever CUDA is available
# why: buggy: under CUDA autocast the matmul returns float16 scores, and -1e9 is far below float16's minimum (-65504), so masked_fill overflows (PyTorch refuses the value); the code's own comment claims -1e9 is safe under FP16 mixed precision. The fix commit ("full training") fills with torch.finfo(scores.dtype).min
# source: https://github.com/ZeroToMax-ZYZ/transformer-pytorch-main https://github.com/ZeroToMax-ZYZ/transformer-pytorch-main/commit/60b21b10004e633cb1ff900572788a6ab3fa44a1 nets/utils/attention.py
import copy
import math

import torch.nn as nn


def attention(query, key, value, mask=None, dropout=None):
    # query, key: (B, h, L, d_k); value: (B, h, S, d_v)
    d_k = query.size(-1)
    scores = query @ key.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        # -1e9 rather than -inf: assumed safe under FP16 mixed precision
        scores = scores.masked_fill(mask == 0, -1e9)  # expect: ATT007
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return p_attn @ value, p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_k, self.h = d_model // h, h
        self.linears = nn.ModuleList([copy.deepcopy(nn.Linear(d_model, d_model)) for _ in range(4)])
        self.attn = None
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # same mask for every head
        nbatches = query.size(0)
        query, key, value = [
            lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2) for lin, x in zip(self.linears[:3], (query, key, value))
        ]
        x, self.attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](x)
