# case: postmask-sinkhorn-causal-sort-masked-before-softmax
# modelled-on: lucidrains/sinkhorn-transformer https://github.com/lucidrains/sinkhorn-transformer/commit/cd3ec383542d9f145e259f8b5976cc555ee301b9
# label: correct
# class: fixed
# pattern: causal sparse Sinkhorn attention: the bucket-sorting scores are masked (first row and the upper triangle) with the dtype minimum before the softmax, and a lower-triangular cut is still applied after it as extra insurance; token scores scaled by the head size d_h, with the model width d unpacked from the same tuple
# why: after the fixes of commits c3bf5ff and cd3ec38: the future buckets are masked before the softmax, so the tril after it only zeroes values that are already 0 (the first row, fully masked, is uniform and then cut, as in the fix); the scale uses the per-head size
# looks-like: ATT004, ATT006, ATT007
# source: https://github.com/lucidrains/sinkhorn-transformer https://github.com/lucidrains/sinkhorn-transformer/commit/cd3ec383542d9f145e259f8b5976cc555ee301b9 sinkhorn_transformer/sinkhorn_transformer.py
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
        sort_mask = torch.zeros((b * h, buckets, buckets), device=device).bool()
        i, j = torch.triu_indices(buckets, buckets)
        sort_mask[:, 0, :] = True
        sort_mask[:, i, j] = True
        R = R.masked_fill(sort_mask, max_neg_value(R))
        R = R.softmax(dim=-1)
        R = R.tril(diagonal=-1)  # extra insurance
        R = keep_top1(R.type_as(q), dim=2)

        b_k = torch.cat((reorder_buckets(b_k, R), b_k), dim=2)  # (bh, buckets, 2 * bsz, d_h)
        b_v = torch.cat((reorder_buckets(b_v, R), b_v), dim=2)

        dots = torch.einsum("buie,buje->buij", b_q, b_k) * (d_h ** -0.5)

        mask = torch.ones((b * h, buckets, bsz, bsz * 2), device=device).bool()
        i, j = torch.triu_indices(bsz, bsz, 1)
        mask[:, :, i, j + bsz] = False  # no future token inside the bucket itself
        dots.masked_fill_(~mask, max_neg_value(dots))

        attn = dots.softmax(dim=-1)
        out = torch.einsum("buij,buje->buie", attn, b_v)
        return out.reshape(b, h, t, d_h)
