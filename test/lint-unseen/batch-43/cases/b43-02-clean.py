# case: b43-02-clean
# modelled-on: shreyansh26/FlashAttention-PyTorch https://github.com/shreyansh26/FlashAttention-PyTorch/commit/441595134b1283bf1d91c2d5154fe57204f9c6e1
# label: correct
# class: clean
# pattern: a pure-PyTorch FlashAttention forward with a causal mask, next to the naive reference it is checked against: queries are pre-scaled by 1/sqrt(d) before the einsum; the reference masks the scores with triu(ones(Lq, Lk), Lk - Lq + 1) (bottom-right aligned, so fewer queries than keys see every earlier key) and a -1e10 constant; the tiled version walks key blocks and query blocks, builds the causal condition from absolute positions (query index + Lk - Lq >= key index), fills the block scores with -1e10 before the block max, and zeroes the exponentials of masked entries again before summing them into the running normaliser
# why: correct: both paths compute softmax(Q K^T / sqrt(d)) with keys after the query's absolute position excluded; the offset Lk - Lq aligns the triangle to the bottom right, which is right when the queries are the last Lq positions of a longer key sequence; the second where() after exp() only re-zeroes entries that were already masked before the max (it protects rows whose whole block is masked, where exp(-1e10 - (-1e10)) would be 1), it is not a mask applied instead of the pre-softmax one; -1e10 is finite in fp32
# looks-like: ATT003, ATT006, ATT007, ATT008
# source: https://github.com/shreyansh26/FlashAttention-PyTorch https://github.com/shreyansh26/FlashAttention-PyTorch/commit/441595134b1283bf1d91c2d5154fe57204f9c6e1 flash_attention_causal.py
import math

import torch

MASKED = -1e10
TINY = 1e-10
TILE = 512


def reference_causal(q, k, v):
    q = q / math.sqrt(q.shape[-1])
    logits = torch.einsum("... i d, ... j d -> ... i j", q, k)
    n_q, n_k = q.shape[2], k.shape[2]
    future = torch.triu(torch.ones((n_q, n_k), device=q.device), n_k - n_q + 1)
    logits = torch.where(future > 0, MASKED, logits)
    return torch.softmax(logits, dim=-1) @ v


def tiled_causal_forward(q, k, v):
    n_q, n_k = q.shape[2], k.shape[2]
    out = torch.zeros_like(q)
    row_sum = torch.zeros(q.shape[:-1], device=q.device)[..., None]
    row_max = torch.full(q.shape[:-1], MASKED, device=q.device)[..., None]

    q_tile = min(TILE, q.shape[-1])
    q_tiles = torch.split(q, q_tile, dim=2)
    k_tiles = torch.split(k, TILE, dim=2)
    v_tiles = torch.split(v, TILE, dim=2)
    out_tiles = list(torch.split(out, q_tile, dim=2))
    sum_tiles = list(torch.split(row_sum, q_tile, dim=2))
    max_tiles = list(torch.split(row_max, q_tile, dim=2))

    q_pos = torch.split(torch.arange(n_q, device=q.device)[:, None] + (n_k - n_q), q_tile, dim=0)
    k_pos = torch.split(torch.arange(n_k, device=q.device)[None, :], TILE, dim=1)
    inv_sqrt_d = 1.0 / math.sqrt(q.shape[-1])

    for kb, (k_blk, v_blk) in enumerate(zip(k_tiles, v_tiles)):
        for qb, q_blk in enumerate(q_tiles):
            allowed = q_pos[qb] >= k_pos[kb]
            s = torch.einsum("... i d, ... j d -> ... i j", q_blk * inv_sqrt_d, k_blk)
            s = torch.where(allowed, s, MASKED)

            blk_max, _ = torch.max(s, dim=-1, keepdim=True)
            p = torch.exp(s - blk_max)
            p = torch.where(allowed, p, 0)
            blk_sum = p.sum(dim=-1, keepdim=True) + TINY

            prev_max, prev_sum = max_tiles[qb], sum_tiles[qb]
            new_max = torch.maximum(blk_max, prev_max)
            new_sum = torch.exp(prev_max - new_max) * prev_sum + torch.exp(blk_max - new_max) * blk_sum
            pv = torch.einsum("... i j, ... j d -> ... i d", p, v_blk)
            out_tiles[qb] = (prev_sum / new_sum) * torch.exp(prev_max - new_max) * out_tiles[qb] + (
                torch.exp(blk_max - new_max) / new_sum
            ) * pv
            sum_tiles[qb], max_tiles[qb] = new_sum, new_max

    return torch.cat(out_tiles, dim=2), torch.cat(sum_tiles, dim=2), torch.cat(max_tiles, dim=2)
