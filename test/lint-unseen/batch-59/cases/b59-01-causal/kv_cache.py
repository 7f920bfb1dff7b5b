"""Per-layer key/value cache with an absolute position counter and optional truncation."""

from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class LayerKV:
    key: torch.Tensor  # [B, L_cached, H_kv, D_h], keys already rotated
    value: torch.Tensor
    pos_end: int  # absolute position just after the last cached token


def extend(old: Optional[LayerKV], k_new: torch.Tensor, v_new: torch.Tensor, max_tokens: Optional[int] = None) -> LayerKV:
    """Append the new tokens; keep at most `max_tokens` of the most recent ones."""
    if old is None:
        keys, values, end = k_new, v_new, k_new.shape[1]
    else:
        keys = torch.cat([old.key, k_new.to(old.key.dtype)], dim=1)
        values = torch.cat([old.value, v_new.to(old.value.dtype)], dim=1)
        end = old.pos_end + k_new.shape[1]
    if max_tokens is not None and keys.shape[1] > max_tokens:
        keys, values = keys[:, -max_tokens:], values[:, -max_tokens:]
    return LayerKV(key=keys.contiguous().detach(), value=values.contiguous().detach(), pos_end=end)


def next_position(caches: list) -> int:
    live = [c.pos_end for c in caches if c is not None]
    if live and any(p != live[0] for p in live):
        raise RuntimeError(f"layers disagree on the cache position: {live}")
    return live[0] if live else 0
