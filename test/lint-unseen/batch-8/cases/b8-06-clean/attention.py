# case: b8-06-clean
# modelled-on: AliHaiderAhmad001/BERT-from-Scratch-with-PyTorch https://github.com/AliHaiderAhmad001/BERT-from-Scratch-with-PyTorch/commit/6aed9d0348c46fe130eb718b06b78cfc9ae636d0
# label: correct
# class: clean
# pattern: a from-scratch BERT with one module per attention head on (B, T, head_dim) tensors (keys transposed with transpose(1, 2)); the embedding module's forward_mask returns input_ids != 0 (True = token), the model passes it to every encoder layer, and each head converts it to int and fills masked_fill(mask.unsqueeze(1) == 0, -1e9)
# why: correct: the mask is a keep mask, (B, 1, T) after unsqueeze(1) broadcasts over the query axis of the (B, T, T) scores, and the fill goes where it is 0 (padding keys); the model trains in float32, where -1e9 is representable; the [CLS] token is never padding, so no row is fully masked
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/AliHaiderAhmad001/BERT-from-Scratch-with-PyTorch https://github.com/AliHaiderAhmad001/BERT-from-Scratch-with-PyTorch/commit/6aed9d0348c46fe130eb718b06b78cfc9ae636d0 attention.py
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class SingleHead(nn.Module):
    def __init__(self, hidden_size: int, head_dim: int, p: float = 0.1):
        super().__init__()
        self.head_dim = head_dim
        self.wq = nn.Linear(hidden_size, head_dim)
        self.wk = nn.Linear(hidden_size, head_dim)
        self.wv = nn.Linear(hidden_size, head_dim)
        self.drop = nn.Dropout(p)

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None):
        q, k, v = self.wq(query), self.wk(key), self.wv(value)  # (B, T, head_dim)
        scores = torch.matmul(q, k.transpose(1, 2)) / self.head_dim ** 0.5  # (B, T_q, T_k)
        if mask is not None:
            mask = mask.to(torch.int)
            scores = scores.masked_fill(mask.unsqueeze(1) == 0, -1e9)
        weights = self.drop(F.softmax(scores, dim=-1))
        return torch.matmul(weights, v)


class HeadList(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int):
        super().__init__()
        head_dim = hidden_size // num_heads
        self.heads = nn.ModuleList([SingleHead(hidden_size, head_dim) for _ in range(num_heads)])
        self.fc = nn.Linear(hidden_size, hidden_size)

    def forward(self, query, key, value, mask=None):
        outs: List[torch.Tensor] = [h(query, key, value, mask=mask) for h in self.heads]
        return self.fc(torch.cat(outs, dim=-1))
