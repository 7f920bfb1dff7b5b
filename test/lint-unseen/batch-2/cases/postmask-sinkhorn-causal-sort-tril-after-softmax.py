# case: postmask-sinkhorn-causal-sort-tril-after-softmax
# modelled-on: lucidrains/sinkhorn-transformer https://github.com/lucidrains/sinkhorn-transformer/commit/c3bf5ff5c957f32e48730842e7dfa2807471d60d
# label: buggy
# class: real-bug
# pattern: causal sparse Sinkhorn attention: a learned sort net scores (buckets x buckets) bucket reorderings, softmax over the source buckets, then a lower-triangular cut; the bucketed token attention unpacks (b, h, t, d_h) and the model width d from the same shape tuple and scales with d
# why: the causal cut of the bucket-sorting matrix is applied after the softmax (torch.tril zeroes the future buckets, the rows no longer sum to 1 and the mass on future buckets leaks into the choice); fixed in commit c3bf5ff ("mask causalsortnet R prior to softmax"); and the token scores are scaled by the model width d instead of the head size d_h, fixed in commit cd3ec38 ("fix attention scaling": d ** -0.5 -> d_h ** -0.5)
# source: https://github.com/lucidrains/sinkhorn-transformer https://github.com/lucidrains/sinkhorn-transformer/commit/c3bf5ff5c957f32e48730842e7dfa2807471d60d sinkhorn_transformer/sinkhorn_transformer.py
import torch
from torch import nn


def max_neg_value(t):
    return -torch.finfo(t.dtype).max


def bucket(buckets, v):
    b, t, d = v.shape
    return v.reshape(b, buckets, -1, d)  # (b, buckets, bucket_size, d)


def cumavg(t, dim):
    r = torch.arange(1, t.shape[dim] + 1, device=t.device)
    shape = [1] * t.dim()
    shape[dim] = -1
    return t.cumsum(dim=dim) / r.reshape(shape)


def reorder_buckets(t, r):
    # t: (bh, buckets, bucket_size, d); r: (bh, buckets, buckets)
    return torch.einsum("buv,bvtd->butd", r, t)


def keep_top1(r, dim):
    top = r.topk(1, dim=dim)
    return torch.zeros_like(r).scatter(dim, top.indices, top.values)


class CausalSortNet(nn.Module):
    def __init__(self, heads, buckets, dim):
        super().__init__()
        self.dim, self.heads, self.buckets = dim, heads, buckets
        self.linear = nn.Parameter(torch.randn(1, heads, dim, buckets))
        self.act = nn.LeakyReLU()

    def forward(self, q, k):
        bh = q.shape[0]
        b = bh // self.heads
        k_r = bucket(self.buckets, torch.cat((cumavg(k, dim=1), k), dim=-1))
        x = k_r[:, :, 0]  # first token of each bucket, so the future cannot leak into the past
        W = self.linear.expand(b, -1, -1, -1).reshape(bh, self.dim, self.buckets)
        return self.act(x @ W)  # (bh, buckets, buckets)


class SinkhornCausalAttention(nn.Module):
    def __init__(self, buckets, dim, heads):
        super().__init__()
        self.dim, self.buckets, self.heads = dim, buckets, heads
        self.sort_net = CausalSortNet(heads, buckets, dim // heads * 2)

    def forward(self, q, k, v):
        b, h, t, d_h, d, buckets, device = *q.shape, self.dim, self.buckets, q.device
        bsz = t // buckets
        q, k, v = (x.reshape(b * h, t, d_h) for x in (q, k, v))
        b_q, b_k, b_v = (bucket(buckets, x) for x in (q, k, v))

        # softmax and mask to prevent future buckets going to past
        R = self.sort_net(q, k)
        R = R.softmax(dim=-1)
        R = torch.tril(R, diagonal=-1)  # expect: ATT006
        R = keep_top1(R.type_as(q), dim=2)

        b_k = torch.cat((reorder_buckets(b_k, R), b_k), dim=2)  # (bh, buckets, 2 * bsz, d_h)
        b_v = torch.cat((reorder_buckets(b_v, R), b_v), dim=2)

        dots = torch.einsum("buie,buje->buij", b_q, b_k) * (d ** -0.5)  # expect: ATT004

        mask = torch.ones((b * h, buckets, bsz, bsz * 2), device=device).bool()
        i, j = torch.triu_indices(bsz, bsz, 1)
        mask[:, :, i, j + bsz] = False  # no future token inside the bucket itself
        dots.masked_fill_(~mask, max_neg_value(dots))

        attn = dots.softmax(dim=-1)
        out = torch.einsum("buij,buje->buie", attn, b_v)
        return out.reshape(b, h, t, d_h)
