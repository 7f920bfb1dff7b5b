# case: t43cc-11-clean
# modelled-on: KhushiPatel1011/Efficient-Video-Inference-with-Vision-Transformers-via-Temporal-Token-Reuse https://github.com/KhushiPatel1011/Efficient-Video-Inference-with-Vision-Transformers-via-Temporal-Token-Reuse/commit/4b3820d3e2828c9ff005258be8d05456fa190eff
# label: correct
# class: clean
# pattern: video inference with a timm ViT whose attention modules are replaced by a subclass of timm's `Attention` (fused qkv split into q/k/v linears beforehand): queries are computed for every token of the new frame; keys and values are taken from a per-layer cache (another module) for "stable" tokens and recomputed for the changed ones (chosen from the previous frame's attention entropy), with token count and order unchanged; scores are `(q @ K.transpose(-2, -1)) * self.scale`, softmax over the last axis, and the attention map is kept for the next frame
# why: correct: `self.scale` is set by timm's `Attention.__init__` (head_dim ** -0.5), which the subclass inherits, so the scores are scaled once; the cached keys have the same token count and order as the queries (the cache is used only when `cache.K.shape[2] == N`), so it is an image model's full bidirectional attention over the frame's tokens, with no causal mask to apply; `K.transpose(-2, -1)` turns (B, H, N, d) keys for the product
# looks-like: ATT003, ATT004, ATT005, ATT008
# source: https://github.com/KhushiPatel1011/Efficient-Video-Inference-with-Vision-Transformers-via-Temporal-Token-Reuse https://github.com/KhushiPatel1011/Efficient-Video-Inference-with-Vision-Transformers-via-Temporal-Token-Reuse/commit/4b3820d3e2828c9ff005258be8d05456fa190eff src/models/patching.py
from typing import Optional

import torch
from timm.models.vision_transformer import Attention

from .kv_cache import FrameKVCache


def stable_token_mask(attn: torch.Tensor, n_tokens: int, stable_ratio: float = 0.75) -> torch.Tensor:
    """[B, N] bool, True where a token's keys/values may be reused (lowest attention entropy)."""
    attn_avg = attn.mean(dim=1) if attn.dim() == 4 else attn
    entropy = (attn_avg * torch.log(attn_avg + 1e-6)).sum(dim=-1)
    if entropy.shape[1] > n_tokens:
        entropy = entropy[:, :n_tokens]
    elif entropy.shape[1] < n_tokens:
        fill = entropy.mean(dim=1, keepdim=True).expand(-1, n_tokens - entropy.shape[1])
        entropy = torch.cat([entropy, fill], dim=1)
    k_stable = min(max(1, int(n_tokens * stable_ratio)), n_tokens - 1)
    idx = torch.topk(entropy, k=k_stable, dim=-1, largest=False).indices
    mask = torch.zeros(attn.shape[0], n_tokens, dtype=torch.bool, device=attn.device)
    mask.scatter_(1, idx, True)
    return mask


class ReuseAttention(Attention):
    """timm Attention with key/value reuse for stable tokens across frames."""

    def forward(
        self,
        x: torch.Tensor,
        cache: Optional[FrameKVCache] = None,
        mode: str = "cache",
        prev_attn: Optional[torch.Tensor] = None,
        stable_ratio: float = 0.75,
    ):
        B, N, C = x.shape
        head_dim = C // self.num_heads
        q = self.q(x).reshape(B, N, self.num_heads, head_dim).permute(0, 2, 1, 3)

        if mode == "match" and cache is not None and not cache.is_empty() and prev_attn is not None and cache.K.shape[2] == N:
            changed = ~stable_token_mask(prev_attn, N, stable_ratio)
            K, V = cache.K.clone(), cache.V.clone()
            idx = changed[0].nonzero(as_tuple=False).squeeze(-1)
            if idx.numel() > 0:
                x_changed = x[:, idx, :]
                K[:, :, idx, :] = self.k(x_changed).reshape(B, -1, self.num_heads, head_dim).permute(0, 2, 1, 3)
                V[:, :, idx, :] = self.v(x_changed).reshape(B, -1, self.num_heads, head_dim).permute(0, 2, 1, 3)
        else:
            K = self.k(x).reshape(B, N, self.num_heads, head_dim).permute(0, 2, 1, 3)
            V = self.v(x).reshape(B, N, self.num_heads, head_dim).permute(0, 2, 1, 3)

        attn = (q @ K.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        attn_map = attn.clone()
        attn = self.attn_drop(attn)

        out = (attn @ V).transpose(1, 2).reshape(B, N, C)
        out = self.proj_drop(self.proj(out))
        return out, K, V, attn_map
