# case: b4-01-postmask
# modelled-on: takah29/transformer-pytorch https://github.com/takah29/transformer-pytorch/commit/511018fc0596c6e0d389dae9a57f31f37eefd4ee
# label: buggy
# class: real-bug
# pattern: a from-scratch multi-head attention with a `masking` flag for the decoder's self-attention: the causal mask is a static helper (triu(ones, 1) turned into a keep mask with `== 0`) and is applied by multiplying the scaled scores with it before a softmax over the last axis; the padding mask is filled with -inf
# why: multiplying the logits by a 0/1 keep mask sets the future logits to 0, not to -inf: exp(0) = 1, so every query still gives the future tokens a weight comparable to the real ones; commit 511018f replaces the product by assigning -inf at the triu positions
# source: https://github.com/takah29/transformer-pytorch https://github.com/takah29/transformer-pytorch/commit/511018fc0596c6e0d389dae9a57f31f37eefd4ee libs/transformer.py
import torch
from torch import nn
from torch.nn import functional as F


class HeadedAttention(nn.Module):
    def __init__(self, width, n_heads, masking=False, p_drop=0.1):
        if width % n_heads != 0:
            raise ValueError("width must be divisible by n_heads")
        super().__init__()
        self.width = width
        self.n_heads = n_heads
        self.masking = masking
        self.per_head = width // n_heads
        self.root_per_head = self.per_head**0.5
        self.wq = nn.Linear(width, width, bias=False)
        self.wk = nn.Linear(width, width, bias=False)
        self.wv = nn.Linear(width, width, bias=False)
        self.drop = nn.Dropout(p_drop)
        self.wo = nn.Linear(width, width)

    def forward(self, src, ctx, ctx_pad=None):
        b, n_src, _ = src.size()
        _, n_ctx, _ = ctx.size()

        # (b, n, width) -> (b, heads, n, per_head)
        q = self.wq(src).view(b, n_src, self.n_heads, self.per_head).transpose(1, 2)
        k = self.wk(ctx).view(b, n_ctx, self.n_heads, self.per_head).transpose(1, 2)
        v = self.wv(ctx).view(b, n_ctx, self.n_heads, self.per_head).transpose(1, 2)

        # (b, heads, n_src, per_head) @ (b, heads, per_head, n_ctx) -> (b, heads, n_src, n_ctx)
        logits = (q @ k.transpose(2, 3)) / self.root_per_head

        if ctx_pad is not None:
            # ctx_pad: (b, n_ctx), True at padding -> (b, 1, 1, n_ctx)
            logits = logits.masked_fill(ctx_pad[:, None, None, :], float("-inf"))

        if self.masking:
            assert n_src == n_ctx
            # (b, heads, n, n) * (1, n, n)
            logits = logits * HeadedAttention.future_keep(n_src).to(logits.device)  # expect: ATT006

        probs = self.drop(F.softmax(logits, dim=-1))
        out = probs @ v
        out = out.transpose(1, 2).reshape(b, n_src, self.width)
        return self.wo(out)

    @staticmethod
    def future_keep(n):
        upper = torch.triu(torch.ones((1, n, n)), diagonal=1).to(torch.uint8)
        return upper == 0  # 1 on and below the diagonal
