# case: b7-22-clean
# modelled-on: friendshipkim/transformer-from-scratch https://github.com/friendshipkim/transformer-from-scratch/commit/d832ea131238e5f6beecd76abfa134137881b014
# label: correct
# class: clean
# pattern: an encoder-decoder transformer whose multi-head module folds the heads into the batch axis ((B, S, d_model) -> (B * h, S, d_k) through transpose(0, 1).view(S, B * h, d_k).transpose(0, 1)), pre-scales the queries by 1/sqrt(d_k), forms the scores with torch.bmm and masks with masked_fill(mask == 0, -inf); the decoder layer in another file expands the keep masks (pad != pad_idx, tril) to (B * h, T, S) and the model in a third file builds them
# why: correct: the queries carry the 1/sqrt(d_k) scale before bmm, the masks are keep masks and are filled where 0, the heads are folded batch-major in both the tensors and the masks, and no query row is fully masked (padding only varies along the key axis)
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT007
# source: https://github.com/friendshipkim/transformer-from-scratch https://github.com/friendshipkim/transformer-from-scratch/commit/d832ea131238e5f6beecd76abfa134137881b014 model/sublayer/multihead_attention.py
import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, h: int, p_drop: float):
        super().__init__()
        self.d_model, self.h = d_model, h
        self.d_k = d_model // h
        self.fc_q = nn.Linear(d_model, d_model)
        self.fc_k = nn.Linear(d_model, d_model)
        self.fc_v = nn.Linear(d_model, d_model)
        self.fc_concat = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(p_drop)

    def forward(self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor = None):
        q, k, v = self.fc_q(q), self.fc_k(k), self.fc_v(v)
        q, k, v = self.merge_batch(q), self.merge_batch(k), self.merge_batch(v)  # (B * h, len, d_k)
        attn_out, attn_score = self.calculate_attn(q, k, v, mask)
        return self.fc_concat(self.detach_batch(attn_out)), attn_score

    def merge_batch(self, x: Tensor) -> Tensor:
        batch_size, seq_len, _ = x.size()
        return x.transpose(0, 1).contiguous().view(seq_len, batch_size * self.h, self.d_k).transpose(0, 1)

    def detach_batch(self, x: Tensor) -> Tensor:
        batch_size, seq_len = x.size(0) // self.h, x.size(1)
        return x.transpose(0, 1).contiguous().view(seq_len, batch_size, self.d_model).transpose(0, 1)

    def calculate_attn(self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor = None):
        # q: (B * h, q_len, d_k), k, v: (B * h, k_len, d_k), mask: (B * h, q_len, k_len)
        q = q / math.sqrt(self.d_k)
        attn_score = torch.bmm(q, k.transpose(-2, -1))  # (B * h, q_len, k_len)
        if mask is not None:
            attn_score = attn_score.masked_fill(mask == 0, value=float("-inf"))
        attn_score = F.softmax(attn_score, dim=-1)
        attn_score = self.dropout(attn_score)
        return torch.bmm(attn_score, v), attn_score
