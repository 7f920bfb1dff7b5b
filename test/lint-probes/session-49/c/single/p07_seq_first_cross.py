import math
import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    """Sequence-first tensors as nn.Transformer (batch_first=False) passes them."""

    def __init__(self, d_model):
        super().__init__()
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)

    def forward(self, tgt, memory, memory_key_padding_mask=None):
        # tgt: (T, B, D); memory: (S, B, D); memory_key_padding_mask: (B, S), True at padding
        q = self.q(tgt)
        k, v = self.kv(memory).chunk(2, dim=-1)
        scores = torch.einsum("tbd,sbd->bts", q, k) / math.sqrt(q.size(-1))
        if memory_key_padding_mask is not None:
            scores = scores.masked_fill(memory_key_padding_mask[:, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        return torch.einsum("bts,sbd->tbd", attn, v)
