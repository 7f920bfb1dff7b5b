# case: fill-espnet-finfo-float32-bf16
# modelled-on: espnet/espnet https://github.com/espnet/espnet/pull/4584
# label: buggy
# pattern: the relative/absolute multi-head attention keeps its scores in (B, H, T1, T2) and fills the padding with the float32 minimum computed once, while the training recipe casts the model to bfloat16
# why: torch.finfo(torch.float32).min (-3.4028e38) is below bfloat16's minimum (-3.3895e38): masked_fill on the bfloat16 scores raises "value cannot be converted to type at::BFloat16 without overflow" (the PR switched to the scores' own dtype)
import math

import torch
import torch.nn as nn


class MultiHeadedAttention(nn.Module):
    def __init__(self, n_head: int, n_feat: int, dropout_rate: float):
        super().__init__()
        assert n_feat % n_head == 0
        self.d_k = n_feat // n_head
        self.h = n_head
        self.linear_q = nn.Linear(n_feat, n_feat)
        self.linear_k = nn.Linear(n_feat, n_feat)
        self.linear_v = nn.Linear(n_feat, n_feat)
        self.linear_out = nn.Linear(n_feat, n_feat)
        self.dropout = nn.Dropout(p=dropout_rate)

    def forward_qkv(self, query, key, value):
        n_batch = query.size(0)
        q = self.linear_q(query).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)  # (B, H, T1, d_k)
        k = self.linear_k(key).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)  # (B, H, T2, d_k)
        v = self.linear_v(value).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        return q, k, v

    def forward_attention(self, value, scores, mask):
        # mask: (B, 1, T2) with 1 at real frames
        n_batch = value.size(0)
        if mask is not None:
            mask = mask.unsqueeze(1).eq(0)  # (B, 1, 1, T2), True at padding
            min_value = torch.finfo(torch.float32).min
            scores = scores.masked_fill(mask, min_value)  # expect: ATT007
            attn = torch.softmax(scores, dim=-1).masked_fill(mask, 0.0)
        else:
            attn = torch.softmax(scores, dim=-1)
        x = torch.matmul(self.dropout(attn), value)  # (B, H, T1, d_k)
        x = x.transpose(1, 2).contiguous().view(n_batch, -1, self.h * self.d_k)
        return self.linear_out(x)

    def forward(self, query, key, value, mask):
        q, k, v = self.forward_qkv(query, key, value)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        return self.forward_attention(v, scores, mask)


def build_for_training(n_head: int, n_feat: int, train_dtype: str = "bfloat16") -> nn.Module:
    model = MultiHeadedAttention(n_head, n_feat, 0.1)
    if train_dtype == "bfloat16":
        model = model.to(dtype=torch.bfloat16)
    return model
