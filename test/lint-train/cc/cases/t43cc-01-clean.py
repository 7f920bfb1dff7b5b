# case: t43cc-01-clean
# modelled-on: bumSin/original-transformer-pytorch https://github.com/bumSin/original-transformer-pytorch/commit/6e34e93df003ceffd4d868e520ae0c8f681199e4
# label: correct
# class: clean
# pattern: a from-scratch multi-head attention module (utils file of a paper re-implementation): q, k, v projected and split into heads with `view(B, -1, h, d_k).transpose(1, 2)`, scores by `torch.einsum('bhqd,bhkd->bhqk', q, k) / d_k ** 0.5`, an optional `mask` parameter applied with `masked_fill(mask == 0, float('-inf'))`, softmax over the last axis, dropout on the weights, `weights @ value`; the module is called with masks by code outside this file
# why: correct: the einsum contracts the head dimension of queries and keys with both key and query positions kept apart (`bhkd` against `bhqd`), which is q @ k^T without a transpose; the mask arrives as a parameter whose zeros are the blocked positions (the repository's decoder passes `tgt_mask`/`src_mask` through), so `mask == 0` is the ignore side; -inf is safe because every row keeps at least its own or a real key
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/bumSin/original-transformer-pytorch https://github.com/bumSin/original-transformer-pytorch/commit/6e34e93df003ceffd4d868e520ae0c8f681199e4 utils/MultiHeadAttentionImpl.py
import torch
import torch.nn.functional as F
from torch import nn


class HeadSplitAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_model = d_model
        self.d_k = d_model // n_heads
        self.d_v = self.d_k

        self.proj_q = nn.Linear(d_model, self.d_k * n_heads)
        self.proj_k = nn.Linear(d_model, self.d_k * n_heads)
        self.proj_v = nn.Linear(d_model, self.d_v * n_heads)
        self.proj_out = nn.Linear(self.d_v * n_heads, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, query, key, value, mask=None):
        bsz = query.size(0)

        q = self.proj_q(query).view(bsz, -1, self.n_heads, self.d_k).transpose(1, 2)
        k = self.proj_k(key).view(bsz, -1, self.n_heads, self.d_k).transpose(1, 2)
        v = self.proj_v(value).view(bsz, -1, self.n_heads, self.d_v).transpose(1, 2)

        ctx, _ = attend(q, k, v, mask, self.drop)

        ctx = ctx.transpose(1, 2).contiguous().view(bsz, -1, self.d_v * self.n_heads)
        return self.proj_out(ctx)


def attend(query, key, value, mask=None, dropout=None):
    """Scaled dot-product attention over (batch, heads, length, d_k) tensors."""
    d_k = query.size(-1)

    # same as query @ key.transpose(-2, -1), written as an einsum
    logits = torch.einsum('bhqd,bhkd->bhqk', query, key) / d_k ** 0.5

    if mask is not None:
        logits = logits.masked_fill(mask == 0, float('-inf'))

    weights = F.softmax(logits, dim=-1)
    if dropout is not None:
        weights = dropout(weights)

    return weights @ value, weights


if __name__ == "__main__":
    layer = HeadSplitAttention(512, 8)
    x = torch.randn(4, 12, 512)
    print(layer(x, x, x).shape)
