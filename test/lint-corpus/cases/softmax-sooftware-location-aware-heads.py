# case: softmax-sooftware-location-aware-heads
# modelled-on: sooftware/attentions https://github.com/sooftware/attentions/blob/master/attentions.py
# label: correct
# pattern: multi-head location-aware attention: heads folded into the batch, scores (B * heads, T) from an additive scorer, softmax over dim=1
# why: after the squeeze the scores are 2-D and dim 1 is the encoder time axis; additive scoring needs no sqrt(d)
# looks-like: ATT001, ATT003
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
from typing import Optional, Tuple


class MultiHeadLocationAwareAttention(nn.Module):
    def __init__(self, hidden_dim: int, num_heads: int = 8, conv_out_channel: int = 10) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.num_heads = num_heads
        self.dim = hidden_dim // num_heads
        self.conv1d = nn.Conv1d(num_heads, conv_out_channel, kernel_size=3, padding=1)
        self.loc_proj = nn.Linear(conv_out_channel, self.dim, bias=False)
        self.query_proj = nn.Linear(hidden_dim, self.dim * num_heads, bias=False)
        self.value_proj = nn.Linear(hidden_dim, self.dim * num_heads, bias=False)
        self.score_proj = nn.Linear(self.dim, 1, bias=True)
        self.bias = nn.Parameter(torch.rand(self.dim).uniform_(-0.1, 0.1))

    def forward(self, query: Tensor, value: Tensor, last_attn: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
        # query: (B, 1, hidden); value: (B, T, hidden); last_attn: (B, heads, T)
        batch_size, seq_len = value.size(0), value.size(1)
        if last_attn is None:
            last_attn = value.new_zeros(batch_size, self.num_heads, seq_len)

        loc_energy = torch.tanh(self.loc_proj(self.conv1d(last_attn).transpose(1, 2)))  # (B, T, dim)
        loc_energy = loc_energy.unsqueeze(1).repeat(1, self.num_heads, 1, 1).view(-1, seq_len, self.dim)

        query = self.query_proj(query).view(batch_size, -1, self.num_heads, self.dim).permute(0, 2, 1, 3)
        value = self.value_proj(value).view(batch_size, -1, self.num_heads, self.dim).permute(0, 2, 1, 3)
        query = query.contiguous().view(-1, 1, self.dim)  # (B * heads, 1, dim)
        value = value.contiguous().view(-1, seq_len, self.dim)  # (B * heads, T, dim)

        score = self.score_proj(torch.tanh(value + query + loc_energy + self.bias)).squeeze(2)  # (B * heads, T)
        attn = F.softmax(score, dim=1)

        context = torch.bmm(attn.unsqueeze(1), value).view(batch_size, -1, self.num_heads * self.dim)
        attn = attn.view(batch_size, self.num_heads, -1)
        return context, attn
