# case: t13f-06-clean
# modelled-on: Informhunter/from-scratch-attention-is-all-you-need https://github.com/Informhunter/from-scratch-attention-is-all-you-need/commit/a7f160291cc1a89612c28c27ff0c4a0684b94c71
# label: correct
# class: clean
# pattern: a from-scratch transformer with heads on the FIRST axis: per-head projection parameters of shape (h, 1, d_model, d_k) broadcast-multiplied with (B, L, d_model) inputs give (h, B, L, d_k); scores are divided by math.sqrt(d_k); a helper that returns None builds a boolean "set to -inf" tensor from the inverted key keep mask (~mask, expanded over the queries), ORs in the strict upper triangle via torch.triu_indices(Lq, Lk, 1) when the module masks back connections, and writes -math.inf into the scores in place by boolean indexing before the softmax over the last axis
# why: correct: the helper mutates the scores tensor it is given (index assignment is in place), so its None return is not a lost result; ~keys_attention_mask is True exactly at padding keys, triu_indices(.., 1) selects the strictly-future keys, and the decoder's self-attention is the only one built with mask_back_connections=True; every query row keeps at least one real, non-future key, so no row is all -inf; the last axis of (h, B, Lq, Lk) scores is the key axis and math.sqrt(d_k) is the per-head width; what a naive linter could misread: ATT007 (a masking helper whose result is not assigned, -inf written by index assignment), ATT002 (~mask of a keep mask), ATT001 (heads-first layout), ATT005 (torch.transpose(keys, -1, -2)), ATT008 (a causal switch in a constructor flag)
# looks-like: ATT001, ATT002, ATT005, ATT007, ATT008
# source: https://github.com/Informhunter/from-scratch-attention-is-all-you-need https://github.com/Informhunter/from-scratch-attention-is-all-you-need/commit/a7f160291cc1a89612c28c27ff0c4a0684b94c71 src/models/transformer/model.py
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, h: int, d_k: int, d_v: int, mask_back_connections: bool):
        super().__init__()
        self.h, self.d_model, self.d_k, self.d_v = h, d_model, d_k, d_v
        self.mask_back_connections = mask_back_connections
        self.queries_transform = nn.Parameter(torch.empty(h, 1, d_model, d_k))
        self.keys_transform = nn.Parameter(torch.empty(h, 1, d_model, d_k))
        self.values_transform = nn.Parameter(torch.empty(h, 1, d_model, d_v))
        self.output_transform = nn.Parameter(torch.empty(h * d_v, d_model))
        for p in (self.queries_transform, self.keys_transform, self.values_transform, self.output_transform):
            nn.init.xavier_uniform_(p)

    def forward(self, queries, keys, values, keys_attention_mask):
        batch_size, queries_len = queries.shape[0], queries.shape[1]
        # (B, L, d_model) @ (h, 1, d_model, d) -> (h, B, L, d)
        queries = torch.matmul(queries, self.queries_transform)
        keys = torch.matmul(keys, self.keys_transform)
        values = torch.matmul(values, self.values_transform)
        attention_weights = torch.matmul(queries, torch.transpose(keys, -1, -2)) / math.sqrt(self.d_k)
        self._mask_attention(attention_weights, keys_attention_mask)
        attention_weights = torch.softmax(attention_weights, -1)
        out = torch.matmul(attention_weights, values).permute(1, 2, 0, 3)
        out = out.reshape(batch_size, queries_len, -1)
        return torch.matmul(out, self.output_transform)

    def _mask_attention(self, attention_weights, keys_attention_mask) -> None:
        """Sets to -inf, in place, every score whose key is padding (and, if asked, every future key)."""
        h, batch_size, queries_len, keys_len = attention_weights.shape
        set_to_minus_inf = torch.full((1, batch_size, queries_len, keys_len), False, dtype=torch.bool, device=keys_attention_mask.device)
        padding = ~(keys_attention_mask.view(batch_size, 1, keys_len).expand(batch_size, queries_len, keys_len))
        set_to_minus_inf = torch.logical_or(set_to_minus_inf, padding)
        if self.mask_back_connections:
            indices = torch.triu_indices(queries_len, keys_len, 1)
            set_to_minus_inf[:, :, indices[0], indices[1]] = True
        attention_weights[set_to_minus_inf.expand(h, batch_size, queries_len, keys_len)] = -math.inf


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, h: int, d_k: int, d_v: int):
        super().__init__()
        self.self_attention = MultiHeadAttention(d_model, h, d_k, d_v, mask_back_connections=True)
        self.cross_attention = MultiHeadAttention(d_model, h, d_k, d_v, mask_back_connections=False)
        self.n1, self.n2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, memory, target_mask, source_mask):
        x = self.n1(x + self.self_attention(x, x, x, target_mask))
        return self.n2(x + self.cross_attention(x, memory, memory, source_mask))
