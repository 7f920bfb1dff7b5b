# case: t43cc-07-clean
# modelled-on: kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f
# label: correct
# class: clean
# pattern: the retrieval branch of a memory-augmented attention layer: an exact paged key/value memory (another module) pads each sample's retrieved tokens to the batch's longest list and returns a boolean `mask_batch` set True on the first n slots of each row; the layer turns it into a (B, 1, 1, R) validity view (all True when no mask comes), scores `einsum('bhtd,bhrd->bhtr', q, k) * d_head ** -0.5` times a temperature, fills `~valid` with `torch.finfo(dtype).min`, softmaxes over R, multiplies the weights by the validity again and renormalises them (clamped denominator); the model module calls `retrieve` and passes the mask on
# why: correct: the memory's mask is True at real retrieved tokens, so `~valid` is the padding and finfo.min keeps a sample with no hits finite; the product with the mask after the softmax only zeroes a row whose keys were all padding (where the softmax is uniform over padding) and the renormalisation leaves other rows unchanged, so nothing is masked after the softmax that was not masked before it; the 1/sqrt(d_head) scale is applied once, the temperature is a learned sharpening on top
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f src/dsra/mhdsra2/improved_dsra_mha.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class RetrievalReader(nn.Module):
    def __init__(self, heads: int, d_head: int, retrieval_tau: float = 4.0, eps: float = 1e-6):
        super().__init__()
        self.heads = heads
        self.d_head = d_head
        self.retrieval_tau = retrieval_tau
        self.eps = eps

    def _valid_mask(self, retrieved_k: torch.Tensor, retrieved_mask: Optional[torch.Tensor]) -> torch.Tensor:
        if retrieved_mask is not None:
            valid = retrieved_mask.to(device=retrieved_k.device, dtype=torch.bool)
            return valid.unsqueeze(0) if valid.dim() == 1 else valid
        return torch.ones(retrieved_k.shape[0], retrieved_k.shape[2], device=retrieved_k.device, dtype=torch.bool)

    def forward(self, q, retrieved_k=None, retrieved_v=None, retrieved_mask=None):
        if retrieved_k is None or retrieved_v is None:
            return torch.zeros_like(q)
        scale = self.d_head ** -0.5
        tau = torch.tensor(float(self.retrieval_tau), device=q.device, dtype=q.dtype)
        logits = torch.einsum("bhtd,bhrd->bhtr", q, retrieved_k.to(dtype=q.dtype)) * scale
        valid = self._valid_mask(retrieved_k, retrieved_mask)
        valid_view = valid.view(valid.shape[0], 1, 1, valid.shape[1])
        scored = (tau * logits).masked_fill(~valid_view, torch.finfo(logits.dtype).min)
        weights = F.softmax(scored, dim=-1)
        weights = weights * valid_view.to(dtype=q.dtype)
        weights = weights / weights.sum(dim=-1, keepdim=True).clamp_min(self.eps)
        return torch.einsum("bhtr,bhrd->bhtd", weights, retrieved_v.to(dtype=q.dtype))
