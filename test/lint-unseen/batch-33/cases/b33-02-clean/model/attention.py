"""Multi-head self-attention with relative positional encoding (Transformer-XL style)."""

import math
from typing import Optional

import torch
import torch.nn as nn


class RelativePositionalEncoding(nn.Module):
    """Sinusoids for the relative offsets -(T-1) .. T-1."""

    def __init__(self, d_model: int, max_len: int = 5000):
        super().__init__()
        self.d_model = d_model
        self.pe = None
        self.extend_pe(max_len)

    def extend_pe(self, length: int):
        if self.pe is not None and self.pe.size(1) >= length * 2 - 1:
            return
        pe = torch.zeros(length * 2 - 1, self.d_model)
        position = torch.arange(-(length - 1), length, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(
            torch.arange(0, self.d_model, 2, dtype=torch.float32) * -(math.log(10000.0) / self.d_model)
        )
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.pe = pe.unsqueeze(0)  # (1, 2*length-1, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        length = x.size(1)
        self.extend_pe(length)
        self.pe = self.pe.to(x.device)
        center = self.pe.size(1) // 2
        return self.pe[:, center - length + 1:center + length, :]


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.d_model = d_model

        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_pos = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model)
        # learnable content / position biases u and v
        self.pos_bias_u = nn.Parameter(torch.Tensor(num_heads, self.d_head))
        self.pos_bias_v = nn.Parameter(torch.Tensor(num_heads, self.d_head))
        nn.init.xavier_uniform_(self.pos_bias_u)
        nn.init.xavier_uniform_(self.pos_bias_v)

        self.dropout = nn.Dropout(dropout)
        self.scale = 1.0 / math.sqrt(self.d_head)

    def _relative_shift(self, x: torch.Tensor) -> torch.Tensor:
        # (batch, heads, time, 2*time-1) -> (batch, heads, time, time)
        batch, heads, time, _ = x.size()
        x = nn.functional.pad(x, (1, 0))
        x = x.view(batch, heads, -1, time)
        x = x[:, :, 1:, :]
        x = x.view(batch, heads, time, 2 * time - 1)
        return x[:, :, :, :time]

    def forward(self, x: torch.Tensor, pos_enc: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        batch, time, _ = x.size()
        q = self.w_q(x).view(batch, time, self.num_heads, self.d_head).transpose(1, 2)
        k = self.w_k(x).view(batch, time, self.num_heads, self.d_head).transpose(1, 2)
        v = self.w_v(x).view(batch, time, self.num_heads, self.d_head).transpose(1, 2)
        p = self.w_pos(pos_enc).view(1, -1, self.num_heads, self.d_head).transpose(1, 2)

        q_with_bias_u = q + self.pos_bias_u.unsqueeze(0).unsqueeze(2)
        q_with_bias_v = q + self.pos_bias_v.unsqueeze(0).unsqueeze(2)

        content_score = torch.matmul(q_with_bias_u, k.transpose(-2, -1))
        pos_score = self._relative_shift(torch.matmul(q_with_bias_v, p.transpose(-2, -1)))
        scores = (content_score + pos_score) * self.scale

        if mask is not None:
            # mask: (batch, time), True on real frames
            if mask.dim() == 2:
                mask = mask.unsqueeze(1)
            mask = mask.unsqueeze(1)
            scores = scores.masked_fill(mask == 0, float('-inf'))

        attn = self.dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(attn, v)
        out = out.transpose(1, 2).contiguous().view(batch, time, self.d_model)
        return self.w_out(out)
