# case: transpose-botnet-conv-heads-v-at-attn-t
# modelled-on: leaderj1001/BottleneckTransformers https://github.com/leaderj1001/BottleneckTransformers/issues/14
# label: correct
# pattern: BoTNet MHSA on conv features: q, k, v are 1x1 convs viewed as (B, heads, C // heads, H * W), channel-first; scores are q.permute(0, 1, 3, 2) @ k plus a relative-position term; the output is v @ attention.permute(0, 1, 3, 2), the weights on the right (the issue asked whether the permute can be dropped); this version scales q by dim_head ** -0.5
# why: with keys channel-first, q^T k contracts the head dimension; the weights are (query, key), so v (d, key) @ weights^T (key, query) sums over the keys; dropping the permute would sum over the queries
# looks-like: ATT001, ATT005
import torch
import torch.nn as nn


class MHSA(nn.Module):
    def __init__(self, n_dims: int, width: int = 14, height: int = 14, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.scale = (n_dims // heads) ** -0.5
        self.query = nn.Conv2d(n_dims, n_dims, kernel_size=1)
        self.key = nn.Conv2d(n_dims, n_dims, kernel_size=1)
        self.value = nn.Conv2d(n_dims, n_dims, kernel_size=1)
        self.rel_h = nn.Parameter(torch.randn([1, heads, n_dims // heads, 1, height]))
        self.rel_w = nn.Parameter(torch.randn([1, heads, n_dims // heads, width, 1]))
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        n_batch, C, width, height = x.size()
        # (B, heads, d, N) with N = width * height
        q = self.query(x).view(n_batch, self.heads, C // self.heads, -1) * self.scale
        k = self.key(x).view(n_batch, self.heads, C // self.heads, -1)
        v = self.value(x).view(n_batch, self.heads, C // self.heads, -1)
        # (B, heads, N_q, N_k)
        content_content = torch.matmul(q.permute(0, 1, 3, 2), k)
        # (1, heads, N, d) @ (B, heads, d, N) -> (B, heads, N, N)
        content_position = (self.rel_h + self.rel_w).view(1, self.heads, C // self.heads, -1).permute(0, 1, 3, 2)
        content_position = torch.matmul(content_position, q)
        attention = self.softmax(content_content + content_position)
        # (B, heads, d, N_k) @ (B, heads, N_k, N_q) -> (B, heads, d, N_q)
        out = torch.matmul(v, attention.permute(0, 1, 3, 2))
        return out.view(n_batch, C, width, height)
