import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden_dim: int, num_heads: int):
        super().__init__()
        self.hidden_dim, self.num_heads = hidden_dim, num_heads
        self.head_dim = hidden_dim // num_heads
        self.q = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.k = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.output_projection = nn.Linear(hidden_dim, hidden_dim, bias=False)

    def forward(self, x, attention_mask=None, context=None):
        b, n, _ = x.shape
        src = x if context is None else context
        m = src.shape[1]
        query = self.q(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        key = self.k(src).view(b, m, self.num_heads, self.head_dim).transpose(1, 2)
        value = self.v(src).view(b, m, self.num_heads, self.head_dim).transpose(1, 2)
        # key.transpose(3, 2) == key.transpose(2, 3)
        attention = torch.matmul(query, key.transpose(3, 2)) / torch.sqrt(torch.tensor(self.head_dim, dtype=torch.float32))
        if attention_mask is not None:
            # an additive mask: 0 where attending is allowed, a huge negative number elsewhere
            attention += attention_mask[:, :, : query.shape[-2], : key.shape[-2]]
        attention = F.softmax(attention, dim=-1)
        out = torch.matmul(attention, value).transpose(1, 2).contiguous().view(b, n, self.hidden_dim)
        return self.output_projection(out)
