# case: t16i-09-fill
# modelled-on: NVIDIA-NeMo/Automodel https://github.com/NVIDIA-NeMo/Automodel/commit/913a280c5a994b453fae9eebea6964cf68a0d207
# label: correct
# class: fixed
# pattern: the same DFlash SDPA mask builder after PR #2826: padding blocks (block_keep_mask False) lose their context visibility but keep their in-block noise attention, (ctx_visible & keep) | noise_visible, before the boolean mask becomes 0 / -inf with torch.where and is added to the scores by an eager attention
# why: correct: every query row keeps at least its own block's keys at 0, so no row of the additive mask is all -inf and the softmax stays finite; the padding blocks' outputs are dropped by the loss mask downstream; -inf is a valid additive fill when no row is fully masked
# looks-like: ATT002, ATT007
# source: https://github.com/NVIDIA-NeMo/Automodel https://github.com/NVIDIA-NeMo/Automodel/pull/2826 nemo_automodel/components/attention/dflash_mask.py
import torch
import torch.nn.functional as F


def create_dflash_sdpa_mask(anchor_positions, block_keep_mask, ctx_len, block_size, device, dtype):
    """[B, 1, N * block_size, ctx_len + N * block_size] additive mask: 0 where attended, -inf elsewhere."""
    B, N = anchor_positions.shape
    q_len = N * block_size
    kv_len = ctx_len + N * block_size
    q_idx = torch.arange(q_len, device=device).view(1, 1, -1, 1)
    kv_idx = torch.arange(kv_len, device=device).view(1, 1, 1, -1)

    q_block = q_idx // block_size
    anchor = anchor_positions.view(B, 1, N, 1).repeat_interleave(block_size, dim=2)
    is_ctx = kv_idx < ctx_len
    ctx_visible = is_ctx & (kv_idx < anchor)
    is_noise = kv_idx >= ctx_len
    kv_block = (kv_idx - ctx_len) // block_size
    noise_visible = is_noise & (q_block == kv_block)

    keep = block_keep_mask.view(B, 1, N, 1).repeat_interleave(block_size, dim=2)
    # a padding block keeps its in-block (noise) attention, so no query row is fully masked
    bool_mask = (ctx_visible & keep) | noise_visible

    neg_inf = torch.tensor(float("-inf"), device=device, dtype=dtype)
    zero = torch.tensor(0.0, device=device, dtype=dtype)
    return torch.where(bool_mask, zero, neg_inf)


def eager_draft_attention(q, k, v, mask, scale):
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    scores = scores + mask
    probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
    return torch.matmul(probs, v)
