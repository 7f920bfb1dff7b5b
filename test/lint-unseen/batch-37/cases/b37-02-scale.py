# case: b37-02-scale
# modelled-on: lucidrains/cross-transformers-pytorch https://github.com/lucidrains/cross-transformers-pytorch/commit/68518cb275ebe6ee6b8eede82afe767c88b4349b
# label: correct
# class: fixed
# pattern: the same CrossTransformer after the fix: self.scale = key_dim ** -0.5 is set in __init__ and the einsum similarity between each query pixel and every support pixel of a class is multiplied by it before the softmax over the flattened (image, row, column) support axes
# why: correct: the scores are scaled by 1/sqrt(key_dim), the width of the single-head key/query projections that the einsum contracts over (c); the softmax is over the flattened support positions, the axis the following einsum sums over with the support values
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/lucidrains/cross-transformers-pytorch https://github.com/lucidrains/cross-transformers-pytorch/commit/68518cb275ebe6ee6b8eede82afe767c88b4349b cross_transformers_pytorch/cross_transformers_pytorch.py
import torch
from torch import nn, einsum
from einops import rearrange


class ClassCrossAttention(nn.Module):
    def __init__(self, channels=512, qk_channels=128, v_channels=128):
        super().__init__()
        self.scale = qk_channels ** -0.5
        self.to_qk = nn.Conv2d(channels, qk_channels, 1, bias=False)
        self.to_v = nn.Conv2d(channels, v_channels, 1, bias=False)

    def forward(self, encoder, target, supports):
        # b: batch, k: classes, n: shots, c: channels, (h, i) rows, (w, j) columns
        b, k, *_ = supports.shape

        target_map = encoder(target)
        *_, h, w = target_map.shape

        supports = rearrange(supports, 'b k n c h w -> (b k n) c h w', b=b)
        support_map = encoder(supports)

        target_q = self.to_qk(target_map)
        target_v = self.to_v(target_map)

        sup_k = rearrange(self.to_qk(support_map), '(b k n) c h w -> b k n c h w', b=b, k=k)
        sup_v = rearrange(self.to_v(support_map), '(b k n) c h w -> b k n c h w', b=b, k=k)

        logits = einsum('b c h w, b k n c i j -> b k h w n i j', target_q, sup_k) * self.scale
        logits = rearrange(logits, 'b k h w n i j -> b k h w (n i j)')

        probs = logits.softmax(dim=-1)
        probs = rearrange(probs, 'b k h w (n i j) -> b k h w n i j', i=h, j=w)

        prototype = einsum('b k h w n i j, b k n c i j -> b k c h w', probs, sup_v)
        prototype = rearrange(prototype, 'b k c h w -> b k (c h w)')
        target_v = rearrange(target_v, 'b c h w -> b () (c h w)')

        return -((target_v - prototype) ** 2).sum(dim=-1) / (h * w)
