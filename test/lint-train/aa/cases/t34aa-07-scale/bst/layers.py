# case: t34aa-07-scale
# modelled-on: nihalsangeeth/behaviour-seq-transformer https://github.com/nihalsangeeth/behaviour-seq-transformer/commit/74185eb5588b1e57a936de9901313dddcc10acf4
# label: buggy
# class: real-bug
# pattern: a Behaviour Sequence Transformer (Alibaba's BST) for next-item recommendation: multi-head attention with per-head width att_dim // n_heads, scores `q @ k.transpose(-2, -1) / scale_factor` where `scale_factor = sqrt(n_heads)`, a keep mask (item != 0 and not in the future, uint8) built by the model in another module and applied with `masked_fill(mask == 0, -1e9)`, nn.Softmax(dim=-1)
# why: buggy: the scores are divided by the square root of the number of heads (4 in the sample config, so 2) instead of the square root of the per-head width the dot products sum over (32 // 4 = 8, so 2.83), as the BST paper's multi-head attention (Vaswani et al.) prescribes; the two agree only when n_heads == att_dim // n_heads; the repository has no fix
# source: https://github.com/nihalsangeeth/behaviour-seq-transformer https://github.com/nihalsangeeth/behaviour-seq-transformer/commit/74185eb5588b1e57a936de9901313dddcc10acf4 bst/layers.py
import torch
from torch import nn


class FF(nn.Module):
    """Position-wise feed-forward of a transformer layer."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.lin_1 = nn.Linear(input_size, hidden_size)
        self.lin_2 = nn.Linear(hidden_size, input_size)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.lin_2(self.relu(self.lin_1(x)))


class MultiHeadAttention(nn.Module):
    def __init__(self, att_dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        assert att_dim % self.n_heads == 0
        self.att_size = int(att_dim / n_heads)

        self.to_q = nn.Linear(att_dim, att_dim, bias=False)
        self.to_k = nn.Linear(att_dim, att_dim, bias=False)
        self.to_v = nn.Linear(att_dim, att_dim, bias=False)

        self.dense = nn.Linear(att_dim, att_dim, bias=False)
        self.activation = nn.Softmax(dim=-1)
        self.dropout = nn.Dropout(0.1)

    def forward(self, q, k, v, mask=None):
        scale_factor = torch.sqrt(torch.FloatTensor([self.n_heads])).item()
        batch_size = q.size(0)

        query = self.to_q(q).view(batch_size, -1, self.n_heads, self.att_size).transpose(1, 2)
        key = self.to_k(k).view(batch_size, -1, self.n_heads, self.att_size).transpose(1, 2)
        value = self.to_v(v).view(batch_size, -1, self.n_heads, self.att_size).transpose(1, 2)

        score = torch.matmul(query, key.transpose(-2, -1)) / scale_factor  # expect: ATT004
        if mask is not None:
            mask = mask.unsqueeze(1)
            score = score.masked_fill(mask == 0, -1e9)
        score = self.activation(score)
        z = torch.matmul(self.dropout(score), value)

        z = z.transpose(1, 2).reshape(batch_size, -1, self.att_size * self.n_heads)
        return self.dense(z)


class EncoderCell(nn.Module):
    def __init__(self, input_size, hidden_size, n_heads):
        super().__init__()
        self.mh_attention = MultiHeadAttention(input_size, n_heads)
        self.lnorm_1 = nn.LayerNorm(input_size)
        self.ff = FF(input_size, hidden_size)
        self.lnorm_2 = nn.LayerNorm(input_size)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, mask=None):
        att = self.mh_attention(x, x, x, mask)
        att = self.lnorm_1(self.dropout(att) + x)
        return self.lnorm_2(self.dropout(self.ff(att)) + att)


class Encoder(nn.Module):
    def __init__(self, input_size, hidden_size, n_layers, n_heads):
        super().__init__()
        self.stack = nn.ModuleList([EncoderCell(input_size, hidden_size, n_heads) for _ in range(n_layers)])
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, mask=None):
        for cell in self.stack:
            x = cell(self.dropout(x), mask)
        return x
