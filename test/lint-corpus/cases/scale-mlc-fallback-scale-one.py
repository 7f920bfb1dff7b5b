# case: scale-mlc-fallback-scale-one
# modelled-on: mlc-ai/mlc-llm https://github.com/mlc-ai/mlc-llm/pull/3426
# label: buggy
# pattern: an encoder "fallback" attention path forwards the kernel's default sm_scale=1.0 into SDPA's scale= while the fast path passes head_dim ** -0.5; q and k are not pre-scaled anywhere
# why: scale=1.0 switches SDPA's default 1/sqrt(d) off, so the fallback's logits are sqrt(head_dim) times too large and its embeddings drift from the reference
from typing import Optional

import torch
import torch.nn.functional as F


def _fallback(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False, sm_scale: float = 1.0) -> torch.Tensor:
    # q, k, v: (B, H, S, hd)
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)  # expect: ATT003


def _fast_path(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=q.shape[-1] ** -0.5)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False, target: Optional[str] = None) -> torch.Tensor:
    """Encoder attention used by BERT / CLIP-vision style models."""
    if target in ("cuda", "rocm") and q.dtype == torch.float16:
        return _fast_path(q, k, v, causal)
    return _fallback(q, k, v, causal)
