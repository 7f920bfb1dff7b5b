import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    """Multi-head self-attention of an encoder block, one Linear per head."""

    def __init__(self, n_heads=8, n_filters=128):
        super(SelfAttention, self).__init__()
        self.n_heads = n_heads
        self.n_filters = n_filters
        self.key_dim = n_filters // n_heads
        self.value_dim = n_filters // n_heads

        self.fc_query = nn.ModuleList([nn.Linear(n_filters, self.key_dim) for _ in range(n_heads)])
        self.fc_key = nn.ModuleList([nn.Linear(n_filters, self.key_dim) for _ in range(n_heads)])
        self.fc_value = nn.ModuleList([nn.Linear(n_filters, self.value_dim) for _ in range(n_heads)])
        self.fc_out = nn.Linear(n_heads * self.value_dim, n_filters)

    def forward(self, x, mask):
        # x: (batch, l, n_filters); mask: (batch, l), 1.0 on real words
        batch_size, l = x.shape[0], x.shape[1]
        mask = mask.unsqueeze(-1).expand(batch_size, l, l).permute(0, 2, 1)  # mask[b, i, j] = mask[b, j]

        heads = torch.zeros(self.n_heads, batch_size, l, self.value_dim, device=x.device)
        for i in range(self.n_heads):
            Q = self.fc_query[i](x)
            K = self.fc_key[i](x)
            V = self.fc_value[i](x)

            # scaled dot-product attention
            tmp = torch.bmm(Q, K.permute(0, 2, 1))
            tmp = tmp / np.sqrt(self.key_dim)
            tmp = F.softmax(tmp - 1e30 * (1 - mask), dim=-1)
            tmp = F.dropout(tmp, p=0.1, training=self.training)
            heads[i] = torch.bmm(tmp, V)

        # (heads, batch, l, d) -> (batch, l, heads * d)
        x = heads.permute(1, 2, 0, 3).contiguous().view(batch_size, l, -1)
        return self.fc_out(x)
