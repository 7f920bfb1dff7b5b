# case: t16i-08-fill
# modelled-on: NVIDIA-NeMo/Automodel https://github.com/NVIDIA-NeMo/Automodel/commit/0e00a9e30575a5b54d20cbcf814f691ef541002b
# label: buggy
# class: real-bug
# pattern: a speculative-decoding draft trainer (DFlash) builds a dense additive mask for the SDPA / eager backends: query blocks of block_size tokens see the context before their anchor and their own noise block, and padding blocks (block_keep_mask False, from batches that mix sequence lengths) are dropped by ANDing the whole visibility mask with keep; the boolean mask becomes 0 / -inf with torch.where, and an eager attention adds it to the scores and softmaxes
# why: buggy: ANDing with keep masks every key of a padding block's query rows, so those rows are all -inf and the dense softmax returns NaN; on the eager path the NaN then reaches the real tokens through the next layer's 0 * NaN value aggregation and the loss and gradients become NaN on every mixed-length batch (fixed in PR #2826 by keeping a padding block's in-block attention so no row is fully masked)
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
    bool_mask = (ctx_visible | noise_visible) & keep

    neg_inf = torch.tensor(float("-inf"), device=device, dtype=dtype)
    zero = torch.tensor(0.0, device=device, dtype=dtype)
    return torch.where(bool_mask, zero, neg_inf)  # expect: ATT007


def eager_draft_attention(q, k, v, mask, scale):
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    scores = scores + mask
    probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
    return torch.matmul(probs, v)
