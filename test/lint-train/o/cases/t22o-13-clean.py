# case: t22o-13-clean
# modelled-on: jianzhnie/mini-vllm https://github.com/jianzhnie/mini-vllm/commit/0b278b8fd5aba16eba10a2c0e8711baab4452fe5
# label: correct
# class: clean
# pattern: a mini-vLLM's attention fallbacks: (1) a per-sequence reference path on (1, seq, heads, head_dim) tensors that makes scores with q.transpose(1, 2) @ k.transpose(1, 2).transpose(-2, -1) times a scale, and for seqlen_q > 1 fills torch.triu(ones(seqlen_q, seqlen_k, bool), diagonal=seqlen_k - seqlen_q + 1) with -inf; (2) a batched prefill path that right-pads the packed sequences of a batch into (B, H, max_seq, D) tensors with zeros and calls SDPA with is_causal=True, keeping only the real tokens of the output
# why: correct: the diagonal seqlen_k - seqlen_q + 1 aligns the causal mask to the bottom right, so queries that follow cached keys see them all (a single decode query needs no mask); transpose(1, 2) then transpose(-2, -1) turns (1, seq, H, D) keys into (1, H, D, seq); in the padded prefill every sequence starts at position 0 and its padding sits after its last token, so the causal mask already hides the padding from every real query, and the padded rows are dropped
# looks-like: ATT002, ATT005, ATT008
# source: https://github.com/jianzhnie/mini-vllm https://github.com/jianzhnie/mini-vllm/commit/0b278b8fd5aba16eba10a2c0e8711baab4452fe5 minivllm/models/layers/attention.py
import torch
import torch.nn.functional as F


def reference_attention(q, k, v, scale, device):
    """q: (1, seqlen_q, H, D); k, v: (1, seqlen_k, H, D) with the cached keys first."""
    attn_weights = torch.matmul(q.transpose(1, 2), k.transpose(1, 2).transpose(-2, -1)) * scale
    seqlen_q = q.size(1)
    seqlen_k = k.size(1)
    if seqlen_q > 1:
        causal_mask = torch.triu(
            torch.ones(seqlen_q, seqlen_k, device=device, dtype=torch.bool),
            diagonal=seqlen_k - seqlen_q + 1,
        )
        attn_weights = attn_weights.masked_fill(causal_mask, float("-inf"))
    attn_probs = torch.softmax(attn_weights, dim=-1)
    out = torch.matmul(attn_probs, v.transpose(1, 2))
    return out.squeeze(0).transpose(0, 1)  # (seqlen_q, H, D)


def padded_prefill(q, k, v, cum_seqlens_q, num_heads, num_kv_heads, head_dim):
    """q: (tokens, H, D), k / v: (tokens, H_kv, D), sequences packed back to back."""
    batch_size = cum_seqlens_q.numel() - 1
    lens = [int(cum_seqlens_q[i + 1] - cum_seqlens_q[i]) for i in range(batch_size)]
    max_seq = max(lens)
    padded_q = torch.zeros(batch_size, num_heads, max_seq, head_dim, dtype=q.dtype, device=q.device)
    padded_k = torch.zeros(batch_size, num_kv_heads, max_seq, head_dim, dtype=k.dtype, device=k.device)
    padded_v = torch.zeros(batch_size, num_kv_heads, max_seq, head_dim, dtype=v.dtype, device=v.device)
    for i in range(batch_size):
        start, end = int(cum_seqlens_q[i]), int(cum_seqlens_q[i + 1])
        padded_q[i, :, : end - start] = q[start:end].transpose(0, 1)
        padded_k[i, :, : end - start] = k[start:end].transpose(0, 1)
        padded_v[i, :, : end - start] = v[start:end].transpose(0, 1)
    group = num_heads // num_kv_heads
    if group > 1:
        padded_k = padded_k.repeat_interleave(group, dim=1)
        padded_v = padded_v.repeat_interleave(group, dim=1)
    out = F.scaled_dot_product_attention(padded_q, padded_k, padded_v, is_causal=True)
    out = out.transpose(1, 2)  # (B, max_seq, H, D)
    return torch.cat([out[i, :n] for i, n in enumerate(lens)], dim=0)
