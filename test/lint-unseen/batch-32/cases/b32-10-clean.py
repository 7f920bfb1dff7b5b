# case: b32-10-clean
# modelled-on: Chiang0111/transformer-from-scratch-pytorch https://github.com/Chiang0111/transformer-from-scratch-pytorch/commit/a47ea4974c3d1bd85d10bc2a34f6ea63da783378
# label: correct
# class: clean
# pattern: an educational encoder-decoder Transformer written from scratch (bilingual, heavily commented course project): scaled_dot_product_attention takes d_k = query.size(-1), divides torch.matmul(query, key.transpose(-2, -1)) by math.sqrt(d_k), fills mask == 0 with -1e9 and takes F.softmax(dim=-1); MultiHeadAttention splits W_q / W_k / W_v outputs into (batch, heads, seq, d_k) before calling it; the training utilities build float keep masks: create_padding_mask returns (seq != pad_idx)[:, None, None, :].float() and create_target_mask multiplies torch.tril(ones) by the target's key padding mask
# why: correct: both masks are keep masks (1 = attend, for the padding mask and for the lower triangle), so mask == 0 selects exactly the padded and future keys; the float dtype does not matter because the mask is only compared with 0, never added to the scores; d_k is read after the head split, so the scale is one head's width; -1e9 is finite in float32, and a padded query row still sees real keys, so no row is all masked
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/Chiang0111/transformer-from-scratch-pytorch https://github.com/Chiang0111/transformer-from-scratch-pytorch/commit/a47ea4974c3d1bd85d10bc2a34f6ea63da783378 transformer/attention.py, utils.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product_attention(
    query: torch.Tensor,  # (batch, heads, seq_len_q, d_k)
    key: torch.Tensor,  # (batch, heads, seq_len_k, d_k)
    value: torch.Tensor,  # (batch, heads, seq_len_v, d_v)
    mask: Optional[torch.Tensor] = None,  # (batch, 1, seq_len_q or 1, seq_len_k), 1 = attend
) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V"""
    d_k = query.size(-1)  # one head's width

    # relevance of every key to every query
    scores = torch.matmul(query, key.transpose(-2, -1))

    # keep the dot products from growing with d_k
    scores = scores / math.sqrt(d_k)

    if mask is not None:
        # -1e9 rather than -inf so that a fully masked row cannot produce NaN
        scores = scores.masked_fill(mask == 0, -1e9)

    attention_weights = F.softmax(scores, dim=-1)  # over the keys of each query
    output = torch.matmul(attention_weights, value)
    return output, attention_weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
        self.num_heads = num_heads
        self.d_k = d_model // num_heads  # width of one head
        self.d_model = d_model
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch_size, seq_len, _ = x.size()
        return x.view(batch_size, seq_len, self.num_heads, self.d_k).transpose(1, 2)

    def combine_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch_size, _, seq_len, _ = x.size()
        return x.transpose(1, 2).contiguous().view(batch_size, seq_len, self.d_model)

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        Q = self.split_heads(self.W_q(query))
        K = self.split_heads(self.W_k(key))
        V = self.split_heads(self.W_v(value))
        attn_output, _ = scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(self.combine_heads(attn_output))


def create_padding_mask(seq: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    """[batch, 1, 1, seq_len]; 1 = attend, 0 = padding."""
    mask = (seq != pad_idx).unsqueeze(1).unsqueeze(2)
    return mask.float()


def create_target_mask(tgt: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    """[batch, 1, tgt_len, tgt_len]; causal keep mask times the key padding keep mask."""
    _, tgt_len = tgt.shape
    causal_mask = torch.tril(torch.ones(tgt_len, tgt_len)).unsqueeze(0).unsqueeze(0)
    padding_mask = (tgt != pad_idx).unsqueeze(1).unsqueeze(2)
    mask = causal_mask * padding_mask
    return mask.float()
