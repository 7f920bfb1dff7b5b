# case: t25r-05-clean
# modelled-on: dlon450/general-attention-mechanism https://github.com/dlon450/general-attention-mechanism/commit/ef7864f5995feba4882d39518fbc45f58b38366f
# label: correct
# class: clean
# pattern: a research "general attention" layer that pools values over a selected subset of keys: rank scores q @ k^T * (1 / sqrt(d_qk)) pick up to max_set_size members per chain with topk over torch.where(mask, scores, finfo.min); one pooling gathers the picked scores, puts finfo.min at unpicked slots, takes torch.softmax(dim=1) over the (chains, members) scores and zeroes unpicked and empty chains with torch.where afterwards; another writes the masked softmax by hand (exp(scores - row_max) * mask, divided by the clamped sum); a third packs the picked members into a TransformerEncoder with src_key_padding_mask = ~picked, unmasking slot 0 of chains that picked nothing and dropping it again in the masked mean
# why: correct: on 2-D (chains, members) scores dim=1 is the key axis; the fills are the dtype's finite minimum, so an empty chain gives uniform weights instead of NaN and is zeroed afterwards; zeroing unpicked weights after a softmax whose input already held the minimum there changes nothing measurable, so no renormalisation is missing, and the hand-written softmax does renormalise (the mask multiplies exp before the sum); ~picked is True at the slots to ignore, as src_key_padding_mask expects, and the one slot unmasked to avoid an all-masked row is excluded from the pooled mean by the picked weights
# looks-like: ATT001, ATT002, ATT006, ATT007
# source: https://github.com/dlon450/general-attention-mechanism https://github.com/dlon450/general-attention-mechanism/commit/ef7864f5995feba4882d39518fbc45f58b38366f general_attention.py
import math

import torch
import torch.nn as nn


def select_subset(mask, max_set_size, rank_scores=None):
    """Indices (canonical order) of up to max_set_size members with mask=True, best rank first."""
    n_chains, L = mask.shape
    keep = min(int(max_set_size), int(L))
    base = mask.to(torch.float32) if rank_scores is None else rank_scores.to(torch.float32)
    floor = torch.finfo(base.dtype).min
    _, top = torch.topk(torch.where(mask, base, torch.full_like(base, floor)), k=keep, dim=1)
    picked = torch.gather(mask, 1, top)
    order_key, order = torch.sort(torch.where(picked, top, torch.full_like(top, L)), dim=1)
    picked = torch.gather(picked, 1, order)
    return torch.where(picked, order_key, torch.zeros_like(order_key)), picked


def subset_softmax_pool(rank_scores, v, batch_idx, mask, max_set_size):
    idx, picked = select_subset(mask, max_set_size, rank_scores)
    keep = idx.shape[1]
    sel_v = v[batch_idx.unsqueeze(1).expand(-1, keep), idx]  # (chains, keep, d_v)
    scores = torch.gather(rank_scores, 1, idx)
    scores = torch.where(picked, scores, torch.full_like(scores, torch.finfo(scores.dtype).min))
    attn = torch.softmax(scores, dim=1)
    attn = torch.where(picked, attn, torch.zeros_like(attn))
    attn = torch.where(picked.any(dim=1, keepdim=True), attn, torch.zeros_like(attn))
    return (attn.unsqueeze(-1).to(sel_v.dtype) * sel_v).sum(dim=1)


def restricted_softmax_pool(rank_scores, v, batch_idx, mask, eps=1e-8):
    chain_v = v[batch_idx]  # (chains, L, d_v)
    non_empty = mask.any(dim=1, keepdim=True)
    masked = torch.where(mask, rank_scores, torch.full_like(rank_scores, torch.finfo(rank_scores.dtype).min))
    row_max = torch.where(non_empty, masked.max(dim=1, keepdim=True).values, torch.zeros_like(rank_scores[:, :1]))
    exp_scores = torch.exp(rank_scores - row_max) * mask.to(rank_scores.dtype)
    weights = exp_scores / exp_scores.sum(dim=1, keepdim=True).clamp_min(float(eps))
    weights = torch.where(non_empty, weights, torch.zeros_like(weights))
    return (weights.unsqueeze(-1).to(chain_v.dtype) * chain_v).sum(dim=1)


def rank_scores_for(q, k):
    scale = 1.0 / math.sqrt(q.shape[-1])
    return torch.matmul(q, k.transpose(1, 2)) * scale  # (B, Lq, L)


class TransformerSubsetPool(nn.Module):
    def __init__(self, d_v, max_set_size=8, heads=4, layers=1, ff_dim=128, eps=1e-8):
        super().__init__()
        self.max_set_size, self.eps = max_set_size, eps
        self.pos = nn.Parameter(torch.zeros(1, max_set_size, d_v))
        layer = nn.TransformerEncoderLayer(d_v, heads, ff_dim, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.out = nn.Sequential(nn.Linear(d_v + 1, ff_dim), nn.GELU(), nn.Linear(ff_dim, d_v))

    def forward(self, v, batch_idx, mask, count, rank_scores=None):
        chain_v = v[batch_idx]
        idx, picked = select_subset(mask, self.max_set_size, rank_scores)
        packed = torch.gather(chain_v, 1, idx.unsqueeze(-1).expand(-1, -1, chain_v.shape[-1]))
        packed = packed * picked.unsqueeze(-1).to(packed.dtype)
        short = self.max_set_size - packed.shape[1]
        if short > 0:
            packed = torch.cat([packed, packed.new_zeros(packed.shape[0], short, packed.shape[2])], dim=1)
            picked = torch.cat([picked, picked.new_zeros(picked.shape[0], short)], dim=1)
        x = packed + self.pos.to(packed.dtype)
        key_padding_mask = ~picked
        empty = key_padding_mask.all(dim=1)
        if empty.any():
            key_padding_mask = key_padding_mask.clone()
            key_padding_mask[empty, 0] = False
        encoded = self.encoder(x, src_key_padding_mask=key_padding_mask)
        w = picked.to(encoded.dtype)
        pooled = (encoded * w.unsqueeze(-1)).sum(dim=1) / w.sum(dim=1, keepdim=True).clamp_min(self.eps)
        pooled = torch.where(picked.any(dim=1, keepdim=True), pooled, torch.zeros_like(pooled))
        return self.out(torch.cat([pooled, torch.log1p(count.to(pooled.dtype)).unsqueeze(-1)], dim=-1))
