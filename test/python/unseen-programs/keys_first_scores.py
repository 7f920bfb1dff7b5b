# label: correct
# why: scores are computed keys-first ([B, S, T]); softmax(dim=1) is over the keys and the weights are transposed before the product with v
import math

import torch
import torch.nn as nn


class KeyMajorAttention(nn.Module):
    """Attention written with the key axis first, as in some pooling layers."""

    def __init__(self, dim):
        super().__init__()
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x):
        q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
        # scores[b, s, t] = k_s . q_t
        scores = torch.bmm(k, q.transpose(1, 2)) * self.scale
        weights = torch.softmax(scores, dim=1)  # over s: every query's weights sum to 1
        return torch.bmm(weights.transpose(1, 2), v)  # [B, T, dim]


if __name__ == "__main__":
    torch.manual_seed(2)
    attn = KeyMajorAttention(16)
    x = torch.randn(3, 9, 16)
    out = attn(x)
    print(out.shape)
