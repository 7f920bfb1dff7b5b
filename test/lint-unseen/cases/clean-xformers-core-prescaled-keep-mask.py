# case: clean-xformers-core-prescaled-keep-mask
# modelled-on: facebookresearch/xformers https://github.com/facebookresearch/xformers/blob/main/xformers/components/attention/core.py
# label: correct
# class: clean
# pattern: q is divided by sqrt(k.size(-1)) before the product; the product and a boolean keep mask (False = ignore) go through a helper that writes -inf at ~mask by index assignment; another helper takes the softmax over dim=a.ndim - 1; an additive float mask is added instead when the mask is not boolean
# why: the scale is folded into q once; the helper's boolean convention is documented (mask presumed false == ignore) and it inverts the mask before filling; a.ndim - 1 is the last (key) axis of the (N, S, S) scores; masks come from the caller, which never hides a whole row
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/facebookresearch/xformers https://github.com/facebookresearch/xformers/commit/1328ba7ca3c7679a934f72c47839153d7d3cbf6a xformers/components/attention/core.py
import math
from typing import Optional

import torch


def _matmul_with_mask(a: torch.Tensor, b: torch.Tensor, mask: Optional[torch.Tensor]) -> torch.Tensor:
    if mask is None:
        return a @ b

    att = a @ b
    if mask.dtype == torch.bool:
        if mask.ndim == 2:
            mask = mask.unsqueeze(0).expand(att.shape[0], -1, -1)
        # mask is presumed false == ignore
        att[~mask] = float("-inf")
    else:
        # mask is presumed additive
        att += mask
    return att


def _softmax(a: torch.Tensor) -> torch.Tensor:
    if a.is_sparse:
        return torch.sparse.softmax(a, dim=a.ndim - 1)
    return torch.softmax(a, dim=a.ndim - 1)


def _apply_dropout(att, dropout):
    if dropout is None:
        return att
    return dropout(att)


def scaled_query_key_softmax(q: torch.Tensor, k: torch.Tensor, att_mask: Optional[torch.Tensor]) -> torch.Tensor:
    # Self-attend: (N, S, hs) x (N, hs, S) -> (N, S, S), with N = B x nh
    q = q / math.sqrt(k.size(-1))

    # Matmul with mask, if boolean
    is_bool_mask = att_mask is not None and att_mask.dtype == torch.bool
    att = _matmul_with_mask(q, k.transpose(-2, -1), att_mask if is_bool_mask else None)

    # Could also be that the mask was additive
    if att_mask is not None and att_mask.dtype != torch.bool:
        att = att + att_mask

    return _softmax(att)


def scaled_dot_product_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    att_mask: Optional[torch.Tensor],
    dropout: Optional[torch.nn.Module] = None,
) -> torch.Tensor:
    if att_mask is not None and q.shape[-2] == k.shape[-2] and q.shape[-2] < att_mask.shape[1]:
        seq = q.shape[-2]
        att_mask = att_mask[:seq, :seq]

    att = scaled_query_key_softmax(q, k, att_mask=att_mask)
    att = _apply_dropout(att, dropout)
    return att @ v
