# case: t43cc-16-clean
# modelled-on: kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f
# label: correct
# class: clean
# pattern: page scoring in an exact paged key memory (which pages to recall for a query): per-sample pages of different sizes are packed into zero tensors with `page_mask[b, p] = True` for real pages and `token_mask[b, p, :n] = True` for their real tokens; token scores are cosine similarities `einsum("bhd,bphtd->bpht", q_summary, normalize(keys)).mean(dim=2)`, filled with `torch.finfo(dtype).min` where `~token_mask`, reduced with `max` over the tokens, combined with the page-summary score by `torch.maximum`, filled with finfo.min where `~page_mask`, and each sample's real pages are returned for a top-k choice
# why: correct: both masks are keep masks (True at real pages and tokens) and the fills go to their complements, so a padded token or page can never win the max or the top-k; finfo.min keeps everything finite, and a page always has at least one real token; there is no softmax here, the scores only rank pages
# looks-like: ATT002, ATT007
# source: https://github.com/kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f src/dsra/mhdsra2/paged_exact_memory.py
from typing import List, Optional

import torch
import torch.nn.functional as F


def score_pages_batched(
    q_summary: torch.Tensor,
    summaries_by_sample: List[List[torch.Tensor]],
    keys_by_sample: List[List[torch.Tensor]],
) -> List[Optional[torch.Tensor]]:
    """q_summary: [B, H, d]; summaries: [H, d] per page; keys: [H, n, d] per page."""
    batch = q_summary.shape[0]
    heads, d_head = q_summary.shape[1], q_summary.shape[2]
    page_counts = [len(s) for s in summaries_by_sample]
    if max(page_counts, default=0) == 0:
        return [None] * batch
    max_pages = max(page_counts)
    max_tokens = max(k.shape[1] for keys in keys_by_sample for k in keys)

    summaries = torch.zeros(batch, max_pages, heads, d_head)
    page_keys = torch.zeros(batch, max_pages, heads, max_tokens, d_head)
    page_mask = torch.zeros(batch, max_pages, dtype=torch.bool)
    token_mask = torch.zeros(batch, max_pages, max_tokens, dtype=torch.bool)
    for b, (sums, keys) in enumerate(zip(summaries_by_sample, keys_by_sample)):
        for p, (summary, key) in enumerate(zip(sums, keys)):
            n = int(key.shape[1])
            summaries[b, p] = summary
            page_keys[b, p, :, :n, :] = key
            page_mask[b, p] = True
            token_mask[b, p, :n] = True

    mean_scores = (q_summary[:, None, :, :] * summaries).sum(dim=-1).mean(dim=-1)
    token_scores = torch.einsum("bhd,bphtd->bpht", q_summary, F.normalize(page_keys, dim=-1)).mean(dim=2)
    token_scores = token_scores.masked_fill(~token_mask, torch.finfo(token_scores.dtype).min)
    page_scores = torch.maximum(mean_scores, token_scores.max(dim=-1).values)
    page_scores = page_scores.masked_fill(~page_mask, torch.finfo(page_scores.dtype).min)
    return [None if n == 0 else page_scores[b, :n].clone() for b, n in enumerate(page_counts)]


def top_pages(scores: Optional[torch.Tensor], k: int) -> List[int]:
    if scores is None:
        return []
    return torch.topk(scores, k=min(k, scores.numel())).indices.tolist()
