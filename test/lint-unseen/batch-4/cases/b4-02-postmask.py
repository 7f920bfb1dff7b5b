# case: b4-02-postmask
# modelled-on: takah29/transformer-pytorch https://github.com/takah29/transformer-pytorch/commit/511018fc0596c6e0d389dae9a57f31f37eefd4ee
# label: correct
# class: fixed
# pattern: the same from-scratch multi-head attention after the fix: the decoder block builds the causal mask (triu(ones, 1) as bool, True above the diagonal) and passes it in; the attention writes -inf into the scores at those positions by boolean indexing before the softmax; the padding mask is filled with -inf
# why: correct: True marks the future positions and they get -inf before the softmax over the keys (the real file still multiplied the padding scores by a 0/1 mask after the fix, an unrelated defect left out here)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/takah29/transformer-pytorch https://github.com/takah29/transformer-pytorch/commit/511018fc0596c6e0d389dae9a57f31f37eefd4ee libs/transformer.py
import torch
from torch import nn
from torch.nn import functional as F


class HeadedAttention(nn.Module):
    def __init__(self, width, n_heads, p_drop=0.1):
        if width % n_heads != 0:
            raise ValueError("width must be divisible by n_heads")
        super().__init__()
        self.width = width
        self.n_heads = n_heads
        self.per_head = width // n_heads
        self.root_per_head = self.per_head**0.5
        self.wq = nn.Linear(width, width, bias=False)
        self.wk = nn.Linear(width, width, bias=False)
        self.wv = nn.Linear(width, width, bias=False)
        self.drop = nn.Dropout(p_drop)
        self.wo = nn.Linear(width, width)

    def forward(self, src, ctx, ctx_pad=None, future=None):
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

        if future is not None:
            assert n_src == n_ctx
            logits[:, :, future] = float("-inf")

        probs = self.drop(F.softmax(logits, dim=-1))
        out = probs @ v
        out = out.transpose(1, 2).reshape(b, n_src, self.width)
        return self.wo(out)

    @staticmethod
    def future_positions(n):
        return torch.triu(torch.ones((n, n)), diagonal=1).to(torch.bool)


class DecoderBlock(nn.Module):
    def __init__(self, width, n_heads):
        super().__init__()
        self.self_attn = HeadedAttention(width, n_heads)
        self.norm = nn.LayerNorm(width)

    def forward(self, x, x_pad=None):
        future = HeadedAttention.future_positions(x.shape[1]).to(x.device)
        return self.norm(x + self.self_attn(x, x, ctx_pad=x_pad, future=future))
