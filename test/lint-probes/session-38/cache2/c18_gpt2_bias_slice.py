import math
import torch
import torch.nn as nn


class GPT2Attention(nn.Module):
    def __init__(self, n_embd, n_head, n_positions):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.register_buffer("bias", torch.tril(torch.ones(n_positions, n_positions, dtype=torch.bool)).view(1, 1, n_positions, n_positions))

    def forward(self, x, layer_past=None):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, -1).transpose(1, 2) for t in (q, k, v))
        if layer_past is not None:
            k = torch.cat((layer_past[0], k), dim=-2)
            v = torch.cat((layer_past[1], v), dim=-2)
        query_length, key_length = q.size(-2), k.size(-2)
        causal = self.bias[:, :, key_length - query_length : key_length, :key_length]
        w = q @ k.transpose(-1, -2) / math.sqrt(v.size(-1))
        w = torch.where(causal, w, torch.finfo(w.dtype).min)
        w = w.softmax(-1)
        return (w @ v).transpose(1, 2).reshape(B, T, C), (k, v)
