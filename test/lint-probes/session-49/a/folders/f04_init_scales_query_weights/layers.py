import torch.nn as nn


class UnscaledAttention(nn.Module):

    def __init__(self, d_model, n_heads, d_kv):
        super().__init__()
        self.n_heads = n_heads
        self.d_kv = d_kv
        self.q = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.k = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.v = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.o = nn.Linear(n_heads * d_kv, d_model, bias=False)

    def forward(self, x, position_bias):
        b, n, _ = x.shape
        q = self.q(x).view(b, n, self.n_heads, self.d_kv).transpose(1, 2)
        k = self.k(x).view(b, n, self.n_heads, self.d_kv).transpose(1, 2)
        v = self.v(x).view(b, n, self.n_heads, self.d_kv).transpose(1, 2)
        scores = q @ k.transpose(-2, -1)
        scores = scores + position_bias
        attn = scores.float().softmax(dim=-1).type_as(scores)
        return self.o((attn @ v).transpose(1, 2).reshape(b, n, -1))
