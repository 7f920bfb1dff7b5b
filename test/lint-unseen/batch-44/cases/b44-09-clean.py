# case: b44-09-clean
# modelled-on: lucidrains/mmdit https://github.com/lucidrains/mmdit/commit/cca1e6c3d66aab7ae7c4bc03564b6f2e2fd779d2
# label: correct
# class: clean
# pattern: self-attention with token-adaptive weights for a multimodal diffusion transformer (text, image and audio tokens concatenated on the sequence axis): the qkv projection produces W alternative weight sets per head, a per-token gate (a linear layer, rearranged to (b, h, n, 1, w), then nn.Softmax(dim=-1) over the W sets) mixes them, queries are multiplied by dim_head ** -0.5, the logits are optionally soft-clamped with tanh, a (b, j) key mask is filled with -finfo.max where False, and the softmax runs over the key axis; the output projection is gated the same way
# why: correct: the gate's softmax is over the W alternative weights (the last axis of (b, h, n, 1, w)), which is what mixes them, not an attention over positions; the attention softmax is over j, the keys; the mask is a keep mask (True = attend) filled where ~mask with the most negative finite value; the queries carry the 1/sqrt(dim_head) scale before the product
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/lucidrains/mmdit https://github.com/lucidrains/mmdit/commit/cca1e6c3d66aab7ae7c4bc03564b6f2e2fd779d2 mmdit/adaptive_attention.py
import torch
from einops import einsum, rearrange, reduce
from einops.layers.torch import Rearrange
from torch import nn


def tanh_clamp(t, limit):
    return (t / limit).tanh() * limit


class GatedWeightAttention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, n_weights=1, clamp=False, clamp_value=50.0):
        super().__init__()
        inner = dim_head * heads
        self.n_weights = n_weights
        self.gated = n_weights > 1
        self.scale = dim_head ** -0.5
        self.clamp, self.clamp_value = clamp, clamp_value
        self.qkv = nn.Sequential(
            nn.Linear(dim, inner * n_weights * 3, bias=False),
            Rearrange("b n (three h d w) -> three b h n d w", three=3, h=heads, w=n_weights),
        )
        if self.gated:
            self.gate = nn.Sequential(
                nn.Linear(dim, n_weights * heads, bias=False),
                Rearrange("b n (h w) -> b h n 1 w", w=n_weights),
                nn.Softmax(dim=-1),
            )
        self.out_weights = nn.Parameter(torch.randn(heads, dim_head, dim * n_weights))

    def forward(self, tokens, keep=None):
        qkv = self.qkv(tokens)
        if self.gated:
            g = self.gate(tokens)
            qkv = reduce(qkv * g, "... w -> ...", "sum")
        else:
            qkv = rearrange(qkv, "... 1 -> ...")
        q, k, v = qkv

        q = q * self.scale
        logits = einsum(q, k, "b h i d, b h j d -> b h i j")
        if self.clamp:
            logits = tanh_clamp(logits, self.clamp_value)
        if keep is not None:
            keep = rearrange(keep, "b j -> b 1 1 j")
            logits = logits.masked_fill(~keep, -torch.finfo(logits.dtype).max)
        weights = logits.softmax(dim=-1)
        out = einsum(weights, v, "b h i j, b h j d -> b h i d")

        out = einsum(out, self.out_weights, "b h n d, h d e -> b h n e")
        if self.gated:
            out = rearrange(out, "... (d w) -> ... d w", w=self.n_weights)
            return reduce(out * g, "... w -> ...", "sum")
        return rearrange(out, "b h n d -> b n (h d)")


def joint_tokens(text, image, audio, text_keep):
    """Concatenates the modalities on the sequence axis; only the text side has padding."""
    keep = torch.cat(
        (text_keep, text_keep.new_ones(image.shape[:2]), text_keep.new_ones(audio.shape[:2])), dim=-1
    )
    return torch.cat((text, image, audio), dim=-2), keep.bool()
