# case: b37-01-scale
# modelled-on: lucidrains/cross-transformers-pytorch https://github.com/lucidrains/cross-transformers-pytorch/commit/f0e858b8efb6d777548b818475ca101c368fb7e2
# label: buggy
# class: real-bug
# pattern: CrossTransformer for few-shot image classification (CrossTransformers, Doersch et al.): a backbone maps the query image and the support images to feature maps; 1x1 convolutions project them to keys/queries (dim_key) and values (dim_value); einsum compares every query pixel with every pixel of every support image of a class ('b c h w, b k n c i j -> b k h w n i j'), the support axes are flattened and the softmax is taken over them; the attended support values are compared with the query's values by a Euclidean distance
# why: buggy: the dot products of dim_key-wide (128 by default) projections go into the softmax with no 1/sqrt(dim_key) scale, as the paper's attention (and scaled dot-product attention) prescribes; the author's next commit (68518cb, "scale after q dot k") adds self.scale = dim_key ** -0.5 and multiplies the similarity by it before the softmax
# source: https://github.com/lucidrains/cross-transformers-pytorch https://github.com/lucidrains/cross-transformers-pytorch/commit/f0e858b8efb6d777548b818475ca101c368fb7e2 cross_transformers_pytorch/cross_transformers_pytorch.py
import torch
from torch import nn, einsum
from einops import rearrange


class SupportCrossAttention(nn.Module):
    def __init__(self, dim=512, key_dim=128, value_dim=128):
        super().__init__()
        self.qk_proj = nn.Conv2d(dim, key_dim, 1, bias=False)
        self.v_proj = nn.Conv2d(dim, value_dim, 1, bias=False)

    def forward(self, backbone, query_img, support_imgs):
        """
        axes:
        b - batch, k - classes, n - support images per class,
        c - channels, h/i - height, w/j - width
        """
        b, k, *_ = support_imgs.shape

        query_feats = backbone(query_img)
        *_, h, w = query_feats.shape

        support_imgs = rearrange(support_imgs, 'b k n c h w -> (b k n) c h w', b=b)
        support_feats = backbone(support_imgs)

        q, query_vals = self.qk_proj(query_feats), self.v_proj(query_feats)

        s_keys, s_vals = self.qk_proj(support_feats), self.v_proj(support_feats)
        s_keys, s_vals = map(
            lambda t: rearrange(t, '(b k n) c h w -> b k n c h w', b=b, k=k), (s_keys, s_vals)
        )

        scores = einsum('b c h w, b k n c i j -> b k h w n i j', q, s_keys)
        scores = rearrange(scores, 'b k h w n i j -> b k h w (n i j)')

        weights = scores.softmax(dim=-1)  # expect: ATT003
        weights = rearrange(weights, 'b k h w (n i j) -> b k h w n i j', i=h, j=w)

        aligned = einsum('b k h w n i j, b k n c i j -> b k c h w', weights, s_vals)

        aligned = rearrange(aligned, 'b k c h w -> b k (c h w)')
        query_vals = rearrange(query_vals, 'b c h w -> b () (c h w)')

        dist = ((query_vals - aligned) ** 2).sum(dim=-1) / (h * w)
        return -dist
