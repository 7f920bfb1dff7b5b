# case: causal-executorch-chunked-prefill
# modelled-on: pytorch/executorch https://github.com/pytorch/executorch/pull/21749
# label: buggy
# pattern: an eager KV-cache reference declares CAUSAL for every multi-token step and calls SDPA with is_causal=True on the whole read window, including continuation chunks of a chunked / multi-turn prefill
# why: top-left alignment makes the first query of the second chunk attend key 0 alone instead of the whole history; the runtime (lower-right, like MLX) disagrees with this oracle on every turn after the first
import enum
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F


class MaskKind(enum.Enum):
    NONE = 0
    CAUSAL = 1


@dataclass
class AttendSpec:
    kind: MaskKind
    mask: Optional[torch.Tensor] = None


class ContiguousCache:
    def __init__(self, batch: int, heads: int, max_len: int, head_dim: int, dtype=torch.float32):
        self.k = torch.zeros(batch, heads, max_len, head_dim, dtype=dtype)
        self.v = torch.zeros(batch, heads, max_len, head_dim, dtype=dtype)
        self.length = 0

    def update_and_fetch(self, k_new: torch.Tensor, v_new: torch.Tensor):
        n = k_new.shape[-2]
        self.k[:, :, self.length : self.length + n] = k_new
        self.v[:, :, self.length : self.length + n] = v_new
        self.length += n
        spec = AttendSpec(MaskKind.NONE if n == 1 else MaskKind.CAUSAL)
        return self.k[:, :, : self.length], self.v[:, :, : self.length], spec


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, spec: AttendSpec) -> torch.Tensor:
    # q: (B, H, n_new, hd); k, v: (B, H, cached + n_new, hd)
    if spec.kind is MaskKind.CAUSAL:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)  # expect: ATT008
    return F.scaled_dot_product_attention(q, k, v)


def step(cache: ContiguousCache, q: torch.Tensor, k_new: torch.Tensor, v_new: torch.Tensor) -> torch.Tensor:
    k, v, spec = cache.update_and_fetch(k_new, v_new)
    return attend(q, k, v, spec)
