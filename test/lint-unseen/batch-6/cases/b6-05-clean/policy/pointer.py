# case: b6-05-clean
# modelled-on: ai4co/rl4co https://github.com/ai4co/rl4co/commit/7a1539678b6a81cc68b4069440aa5e98f6931f6c
# label: correct
# class: clean
# pattern: a routing policy's pointer decoder: multi-head glimpse attention through SDPA with a boolean feasibility mask (True = node may be visited, unsqueezed to (B, 1, 1, N)), a projected glimpse, pointer logits glimpse @ logit_key^T / sqrt(d), then in another module tanh clipping, logits[~mask] = -inf, temperature and log_softmax over the nodes
# why: correct: torch SDPA's boolean mask keeps the True positions, which are the feasible nodes; the pointer logits are scaled by sqrt of the glimpse width; the infeasible actions are set to -inf before the (log-)softmax, after tanh clipping has bounded the feasible ones, exactly as the pointer-network papers do
# looks-like: ATT002, ATT003, ATT006, ATT007
# source: https://github.com/ai4co/rl4co https://github.com/ai4co/rl4co/commit/7a1539678b6a81cc68b4069440aa5e98f6931f6c rl4co/models/nn/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

from .logits import logits_to_log_probs


class PointerAttention(nn.Module):
    """Pointer mechanism: glimpse over the nodes, then one logit per node."""

    def __init__(self, embed_dim, num_heads, mask_inner=True, out_bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.mask_inner = mask_inner
        self.project_out = nn.Linear(embed_dim, embed_dim, bias=out_bias)

    def forward(self, query, key, value, logit_key, attn_mask=None):
        """query (B, 1, E); key, value, logit_key (B, N, E); attn_mask (B, N) bool, True = feasible"""
        heads = self._inner_mha(query, key, value, attn_mask)
        glimpse = self.project_out(heads)  # (B, 1, E)
        logits = torch.bmm(glimpse, logit_key.transpose(-2, -1)).squeeze(-2) / math.sqrt(glimpse.size(-1))  # (B, N)
        return logits

    def _inner_mha(self, query, key, value, attn_mask):
        q = self._make_heads(query)  # (B, H, 1, E/H)
        k = self._make_heads(key)  # (B, H, N, E/H)
        v = self._make_heads(value)
        if self.mask_inner and attn_mask is not None:
            attn_mask = attn_mask.unsqueeze(1) if attn_mask.ndim == 3 else attn_mask.unsqueeze(1).unsqueeze(2)
        else:
            attn_mask = None
        heads = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return rearrange(heads, "... h n g -> ... n (h g)", h=self.num_heads)

    def _make_heads(self, x):
        return rearrange(x, "... g (h s) -> ... h g s", h=self.num_heads)


class PointerDecoder(nn.Module):
    def __init__(self, embed_dim=128, num_heads=8, tanh_clipping=10.0, temperature=1.0):
        super().__init__()
        self.project_node = nn.Linear(embed_dim, 3 * embed_dim, bias=False)
        self.project_context = nn.Linear(2 * embed_dim, embed_dim, bias=False)
        self.pointer = PointerAttention(embed_dim, num_heads)
        self.tanh_clipping = tanh_clipping
        self.temperature = temperature

    def forward(self, node_embeds, context, action_mask):
        # node_embeds (B, N, E); context (B, 2E); action_mask (B, N), True = feasible
        glimpse_k, glimpse_v, logit_k = self.project_node(node_embeds).chunk(3, dim=-1)
        query = self.project_context(context).unsqueeze(1)  # (B, 1, E)
        logits = self.pointer(query, glimpse_k, glimpse_v, logit_k, action_mask)
        return logits_to_log_probs(logits, action_mask, self.temperature, self.tanh_clipping)
