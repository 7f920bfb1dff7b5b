import torch
import torch.nn as nn


class T5LikeAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n, self.dh = n_heads, d // n_heads
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)

    def forward(self, x, mask):
        # mask: (B, T) with 1 for tokens; half precision throughout
        B, T, _ = x.shape
        split = lambda t: t.view(B, T, self.n, self.dh).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(3, 2)) / self.dh ** 0.5
        ext = (1.0 - mask[:, None, None, :].to(scores.dtype)) * -1e4  # fits float16 (max 65504)
        w = torch.softmax((scores + ext).float(), dim=-1).type_as(scores)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, -1)


net = T5LikeAttention(64, 8).half().cuda()
