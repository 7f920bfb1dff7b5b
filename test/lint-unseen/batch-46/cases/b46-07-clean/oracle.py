# case: b46-07-clean
# modelled-on: renlililoli/stream-attn https://github.com/renlililoli/stream-attn/commit/9eb3dfb1c7d9df1d84ec96b6b088896864ed06d5
# label: correct
# class: clean
# pattern: correctness oracle for a streaming variable-length attention kernel (a folder: the tiled online-softmax reference and the dense per-segment baseline it is compared with): packed (tokens, heads, dim) tensors with cu_seqlens offsets; each sequence's query tile is compared with key tiles, scores are q @ k^T * dim ** -0.5 (or a given scale), causal masking keeps key j for query i when j <= i + (keys - queries) and fills the rest with -inf; a running max, a rescaled running sum and output implement the softmax over all key tiles, with torch.where guards for rows that are still all -inf; the baseline runs SDPA with is_causal on each square segment after repeating the kv heads
# why: correct: the causal shift keys - queries aligns the triangle bottom-right, as a cached or chunked query block needs, and is 0 when both lengths are equal; the -inf fill never produces NaN because exp is only taken where the scores are finite and rows without a finite maximum keep their old scale; the online update is the softmax over the key axis split into tiles; the baseline's segments have as many keys as queries (the same offsets), so SDPA's top-left is_causal is the same triangle; the default scale is head_dim ** -0.5
# looks-like: ATT001, ATT007, ATT008
# source: https://github.com/renlililoli/stream-attn https://github.com/renlililoli/stream-attn/commit/9eb3dfb1c7d9df1d84ec96b6b088896864ed06d5 src/seqattn_core/reference.py
import math
from typing import Optional

import torch


def _offsets(cu: torch.Tensor, total: int) -> list:
    out = cu.to(torch.int64).tolist()
    if out[0] != 0 or out[-1] != total:
        raise ValueError(f"offsets must run from 0 to {total}")
    return out


@torch.inference_mode()
def tiled_reference(q_all, k_all, v_all, cu_q, cu_k, *, q_tile: int, kv_tile: int,
                    scale: Optional[float] = None, causal: bool = False, device="cpu"):
    qb, kb = _offsets(cu_q, q_all.shape[0]), _offsets(cu_k, k_all.shape[0])
    scale = q_all.shape[-1] ** -0.5 if scale is None else float(scale)
    rep = q_all.shape[1] // k_all.shape[1]
    result = torch.empty_like(q_all)

    for qs, qe, ks, ke in zip(qb[:-1], qb[1:], kb[:-1], kb[1:]):
        shift = (ke - ks) - (qe - qs)
        for t0 in range(qs, qe, q_tile):
            t1 = min(t0 + q_tile, qe)
            q = q_all[t0:t1].to(device).transpose(0, 1).float()          # (H, tq, D)
            H, tq, D = q.shape
            row_max = torch.full((H, tq), -math.inf, device=device)
            row_sum = torch.zeros(H, tq, device=device)
            acc = torch.zeros(H, tq, D, device=device)
            q_pos = torch.arange(t0 - qs, t0 - qs + tq, device=device)

            for s0 in range(ks, ke, kv_tile):
                s1 = min(s0 + kv_tile, ke)
                k = k_all[s0:s1].to(device).repeat_interleave(rep, dim=1).transpose(0, 1).float()
                v = v_all[s0:s1].to(device).repeat_interleave(rep, dim=1).transpose(0, 1).float()
                s = torch.matmul(q, k.transpose(-1, -2)) * scale          # (H, tq, tk)
                if causal:
                    k_pos = torch.arange(s0 - ks, s1 - ks, device=device)
                    visible = k_pos[None, :] <= q_pos[:, None] + shift
                    s = s.masked_fill(~visible[None], -math.inf)

                new_max = torch.maximum(row_max, s.amax(dim=-1))
                finite = torch.isfinite(new_max)
                carry = torch.where(finite, torch.exp(row_max - new_max), torch.ones_like(new_max))
                p = torch.where(torch.isfinite(s), torch.exp(s - new_max[..., None]), torch.zeros_like(s))
                row_sum = row_sum * carry + p.sum(dim=-1)
                acc = acc * carry[..., None] + torch.matmul(p, v)
                row_max = torch.where(finite, new_max, row_max)

            out = torch.where(row_sum[..., None] > 0, acc / row_sum[..., None], torch.zeros_like(acc))
            result[t0:t1] = out.transpose(0, 1).to(q_all.dtype).cpu()
    return result
