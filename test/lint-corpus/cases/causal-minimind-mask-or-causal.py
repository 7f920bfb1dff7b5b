# case: causal-minimind-mask-or-causal
# modelled-on: jingyaogong/minimind https://github.com/jingyaogong/minimind/pull/536
# label: correct
# pattern: the fix: when a padding mask is present it is combined with an explicit lower-right causal mask (True = attend) and is_causal is False; otherwise SDPA's is_causal is used on the uncached square case
# why: SDPA never receives both; the explicit causal mask is built with diagonal = S - L so it stays right with a cache
# looks-like: ATT008, ATT002
from typing import Optional

import torch
import torch.nn.functional as F


def attend(xq: torch.Tensor, xk: torch.Tensor, xv: torch.Tensor, attention_mask: Optional[torch.Tensor], dropout_p: float = 0.0) -> torch.Tensor:
    # xq: (B, H, L, hd); xk, xv: (B, H, S, hd); attention_mask: (B, S) 1 = token, right-padded batches
    # (every query row keeps at least key 0, so no row is fully masked)
    L, S = xq.shape[-2], xk.shape[-2]
    if attention_mask is None and L == S:
        return F.scaled_dot_product_attention(xq, xk, xv, dropout_p=dropout_p, is_causal=True)
    causal = torch.ones(L, S, dtype=torch.bool, device=xq.device).tril(diagonal=S - L)  # (L, S)
    allowed = causal[None, None]
    if attention_mask is not None:
        allowed = allowed & attention_mask.bool()[:, None, None, :]
    return F.scaled_dot_product_attention(xq, xk, xv, attn_mask=allowed, dropout_p=dropout_p, is_causal=False)
