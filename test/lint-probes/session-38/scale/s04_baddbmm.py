import math
import torch
import torch.nn as nn


class BaddbmmAttention(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.inv_norm = 1.0 / math.sqrt(self.head_dim)
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, alibi):
        b, t, _ = x.shape
        fused = self.query_key_value(x).view(b, t, self.num_heads, 3, self.head_dim)
        q = fused[..., 0, :].transpose(1, 2).reshape(b * self.num_heads, t, self.head_dim)
        k = fused[..., 1, :].permute(0, 2, 3, 1).reshape(b * self.num_heads, self.head_dim, t)
        v = fused[..., 2, :].transpose(1, 2).reshape(b * self.num_heads, t, self.head_dim)
        # alibi: (b * heads, 1, t)
        scores = alibi.baddbmm(batch1=q, batch2=k, beta=1.0, alpha=self.inv_norm)
        probs = torch.softmax(scores, dim=-1)
        return torch.bmm(probs, v).view(b, self.num_heads, t, self.head_dim)
