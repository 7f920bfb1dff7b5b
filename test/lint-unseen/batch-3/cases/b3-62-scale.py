# case: b3-62-scale
# modelled-on: JaHeRoth/gpt2-from-scratch https://github.com/JaHeRoth/gpt2-from-scratch/commit/e4607527657a5be78a57d16028a9aefb525e01c4
# label: correct
# class: fixed
# pattern: a GPT-2 trained on packed batches: a helper builds, per sequence, an additive mask that is 0 where a query may see a key (same document segment, by EOS-delimited segment ids, and causal) and -inf elsewhere, repeated per head along the batch axis; a fused multi-head attention projects q, k, v in one linear layer, folds the heads into the batch axis, adds the mask to q @ k^T and takes the softmax over the keys
# why: after commit e460752 the scores are divided by sqrt(d_head), the width of the per-head dot products, before the additive mask and the softmax; the mask is 0 on the diagonal (every token is in its own segment and sees itself), so no row is all -inf, and repeat_interleave orders it batch-major like the folded heads
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/JaHeRoth/gpt2-from-scratch https://github.com/JaHeRoth/gpt2-from-scratch/commit/e4607527657a5be78a57d16028a9aefb525e01c4 utilities/models.py
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def build_packed_batch_mask(input_ids: torch.Tensor, eos_token_id: int, nhead: int):
    """Position ids restarting after every EOS, and an additive (B * nhead, L, L) mask: 0 = may attend, -inf = not."""
    B, L = input_ids.shape
    raw_idx = torch.arange(L, device=input_ids.device).expand_as(input_ids)
    last_eos_idx = torch.cummax(torch.where(input_ids == eos_token_id, raw_idx, 0), dim=1).values
    relative_idx = raw_idx - last_eos_idx
    segment_id = (input_ids == eos_token_id).cumsum(dim=1)
    same_segment = segment_id.unsqueeze(2) == segment_id.unsqueeze(1)
    causal = torch.tril(torch.ones(L, L, dtype=torch.bool, device=input_ids.device))
    additive = torch.where(same_segment & causal, 0.0, -torch.inf)
    return relative_idx, additive.repeat_interleave(nhead, dim=0)


class FusedMultiHeadAttention(nn.Module):
    def __init__(self, num_heads: int, d_model: int, dropout_p: float):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads, self.d_model = num_heads, d_model
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.dropout = nn.Dropout(p=dropout_p)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor, attn_mask: torch.Tensor):
        batch_size, seq_len = x.shape[0], x.shape[1]
        d_head = self.d_model // self.num_heads
        qkv = (
            self.in_proj(x)
            .view(batch_size, seq_len, self.num_heads, d_head, 3)
            .transpose(1, 2)
            .reshape(batch_size * self.num_heads, seq_len, d_head, 3)
        )
        q, k, v = qkv[..., 0], qkv[..., 1], qkv[..., 2]  # each (batch * heads, seq_len, d_head)

        weight_logits = q @ k.transpose(-2, -1) / np.sqrt(d_head) + attn_mask  # (batch * heads, seq_len, seq_len)
        weights = self.dropout(F.softmax(weight_logits, dim=-1))
        heads = (weights @ v).view(batch_size, self.num_heads, seq_len, d_head).transpose(1, 2)
        return self.out_proj(heads.reshape(batch_size, seq_len, self.d_model))
