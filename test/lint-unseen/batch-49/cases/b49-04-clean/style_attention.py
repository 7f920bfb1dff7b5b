# case: b49-04-clean
# modelled-on: yl4579/styletts2 https://github.com/yl4579/styletts2/commit/5cedc71c333f8d8b8551ca59378bdcc7af4c9529
# label: correct
# class: clean
# pattern: the style-diffusion transformer of a text-to-speech model (a folder: helpers with exists/default, the random condition dropout and a style-conditioned LayerNorm; the attention module, where q comes from the normed input and k, v from a normed context, a T5-style bucketed relative position bias is added to the einsum similarities, the sum is multiplied by head_features ** -0.5 and normalised over the keys; a sampler wrapper that mixes conditional and unconditional outputs with a guidance `embedding_scale`)
# why: correct: the similarity is (b, h, n, m) from einsum '... n d, ... m d -> ... n m' with keys last, the softmax is over dim=-1 and the factor is 1/sqrt(head_features), the per-head width; adding the learned relative bias before the multiplication only rescales a learned table, so it is the same family of models as adding it after; the positions are aligned to the end (q_pos = arange(m - n, m)) for a shorter query; nothing is masked because every frame attends to all frames and the context; `embedding_scale` is classifier-free guidance on the style, applied to the network outputs, not to attention scores
# looks-like: ATT003, ATT004
# source: https://github.com/yl4579/styletts2 https://github.com/yl4579/styletts2/commit/5cedc71c333f8d8b8551ca59378bdcc7af4c9529 Modules/diffusion/modules.py
from math import log
from typing import Optional

import torch
import torch.nn as nn
from einops import rearrange
from torch import Tensor, einsum

from helpers import StyleLayerNorm, coin_flips, default, exists


class BucketedRelativeBias(nn.Module):
    def __init__(self, buckets: int, max_distance: int, heads: int):
        super().__init__()
        self.buckets = buckets
        self.max_distance = max_distance
        self.table = nn.Embedding(buckets, heads)

    def _bucket(self, rel: Tensor) -> Tensor:
        half = self.buckets // 2
        out = (rel >= 0).long() * half
        dist = rel.abs()
        exact = half // 2
        far = exact + (torch.log(dist.float() / exact) / log(self.max_distance / exact) * (half - exact)).long()
        far = far.clamp(max=half - 1)
        return out + torch.where(dist < exact, dist, far)

    def forward(self, n_q: int, n_k: int) -> Tensor:
        dev = self.table.weight.device
        q_pos = torch.arange(n_k - n_q, n_k, device=dev)
        k_pos = torch.arange(n_k, device=dev)
        rel = k_pos[None, :] - q_pos[:, None]
        return rearrange(self.table(self._bucket(rel)), "i j h -> 1 h i j")


class HeadMixer(nn.Module):
    def __init__(self, features: int, heads: int, head_features: int, rel_pos: Optional[dict] = None):
        super().__init__()
        self.heads = heads
        self.scale = head_features ** -0.5
        self.bias = BucketedRelativeBias(heads=heads, **rel_pos) if exists(rel_pos) else None
        self.to_out = nn.Linear(heads * head_features, features)

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        sim = einsum("... n d, ... m d -> ... n m", q, k)
        if self.bias is not None:
            sim = sim + self.bias(sim.shape[-2], sim.shape[-1])
        sim = sim * self.scale
        attn = sim.softmax(dim=-1)
        out = einsum("... n m, ... m d -> ... n d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class StyleConditionedAttention(nn.Module):
    def __init__(self, features: int, style_dim: int, heads: int, head_features: int,
                 context_features: Optional[int] = None, rel_pos: Optional[dict] = None):
        super().__init__()
        self.needs_context = exists(context_features)
        ctx = default(context_features, features)
        inner = heads * head_features
        self.norm = StyleLayerNorm(style_dim, features)
        self.norm_ctx = StyleLayerNorm(style_dim, ctx)
        self.to_q = nn.Linear(features, inner, bias=False)
        self.to_kv = nn.Linear(ctx, 2 * inner, bias=False)
        self.mix = HeadMixer(features, heads, head_features, rel_pos)

    def forward(self, x: Tensor, style: Tensor, context: Optional[Tensor] = None) -> Tensor:
        assert not self.needs_context or exists(context), "this block needs a context"
        context = default(context, x)
        x, context = self.norm(x, style), self.norm_ctx(context, style)
        k, v = self.to_kv(context).chunk(2, dim=-1)
        return self.mix(self.to_q(x), k, v)


def guided(run, x, style, null_style, drop_p: float = 0.0, embedding_scale: float = 1.0):
    """Classifier-free guidance on the style condition around one network evaluation `run`."""
    if drop_p > 0.0:
        dropped = coin_flips((style.shape[0], 1), drop_p, device=style.device)
        style = torch.where(dropped, null_style, style)
    if embedding_scale == 1.0:
        return run(x, style)
    cond, uncond = run(x, style), run(x, null_style)
    return uncond + (cond - uncond) * embedding_scale
