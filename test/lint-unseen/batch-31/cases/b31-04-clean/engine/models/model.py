# case: b31-04-clean
# modelled-on: mohiey-507/SASRecNext-Engine https://github.com/mohiey-507/SASRecNext-Engine/commit/0c56a18142fff9a5800f98684fec659af4948cc1
# label: correct
# class: clean
# pattern: a modernised SASRec next-item recommender (RoPE, RMSNorm, SwiGLU, weight-tied output): this module builds one float (B, 1, L, L) mask as a precomputed causal buffer (torch.triu of a -inf-filled square, diagonal=1) plus a per-batch key-padding bias (zeros with masked_fill_ -inf where input_ids == 0, shaped (B, 1, 1, L)); the layers in engine/models/blocks.py pass it as attn_mask to F.scaled_dot_product_attention, or, when attention weights are requested for inspection, add it to q @ k^T / sqrt(head_dim) and softmax over the keys, replacing NaN rows with 0
# why: correct: SDPA adds a float attn_mask to the scores, so -inf at future keys and at padded keys removes exactly those; the keys are transposed over their last two axes and scaled by the head width in the inspection path, and SDPA scales by default in the other; the sequences are left-padded, so a padded query position can see only padded keys and its row is fully masked: the inspection path zeroes those NaN rows with nan_to_num and SDPA (PyTorch 2.5 and later) returns zeros for fully masked rows; those rows belong to padding positions, not to items
# looks-like: ATT002, ATT003, ATT005, ATT007, ATT008
# source: https://github.com/mohiey-507/SASRecNext-Engine https://github.com/mohiey-507/SASRecNext-Engine/commit/0c56a18142fff9a5800f98684fec659af4948cc1 engine/models/model.py
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn as nn

from .blocks import RMSNorm, TransformerLayer

if TYPE_CHECKING:
    from torch import Tensor


class SASRecNext(nn.Module):
    """SASRec with RoPE, RMSNorm, SwiGLU and a weight-tied output over the full item catalogue."""

    def __init__(self, n_items: int, d_model: int = 64, n_heads: int = 2, n_layers: int = 2,
                 max_seq_len: int = 200, dropout: float = 0.2, ffn_dim: int = 256) -> None:
        super().__init__()
        self.n_items = n_items
        self.item_embedding = nn.Embedding(n_items + 1, d_model, padding_idx=0)
        self.embedding_dropout = nn.Dropout(dropout)
        self.layers = nn.ModuleList(
            [TransformerLayer(d_model, n_heads, max_seq_len, dropout, ffn_dim, dropout) for _ in range(n_layers)]
        )
        self.final_norm = RMSNorm(d_model)

        causal_mask = torch.triu(torch.full((max_seq_len, max_seq_len), float("-inf")), diagonal=1)
        self.register_buffer("causal_mask", causal_mask, persistent=False)

    def forward(
        self,
        input_ids: Tensor,
        return_last_only: bool = False,
        return_attn_weights: bool = False,
    ) -> Tensor | tuple[Tensor, list[Tensor | None]]:
        padding_mask = input_ids == 0
        attn_mask = self._build_attention_mask(padding_mask)

        x = self.embedding_dropout(self.item_embedding(input_ids))
        attn_weights_list = []
        for layer in self.layers:
            x, attn_weights = layer(x, attn_mask, return_attn_weights)
            if return_attn_weights:
                attn_weights_list.append(attn_weights)
        x = self.final_norm(x)

        if return_last_only:
            logits = x[:, -1, :] @ self.item_embedding.weight.T
        else:
            logits = x @ self.item_embedding.weight.T

        if return_attn_weights:
            return logits, attn_weights_list
        return logits

    def _build_attention_mask(self, padding_mask: Tensor) -> Tensor:
        """Causal mask plus key-padding bias: a (B, 1, L, L) float mask with -inf at blocked positions."""
        seq_len = padding_mask.shape[1]
        causal = self.causal_mask[:seq_len, :seq_len]  # (L, L)
        pad_bias = torch.zeros(
            padding_mask.shape[0], 1, 1, seq_len, dtype=causal.dtype, device=causal.device
        )
        pad_bias.masked_fill_(padding_mask[:, None, None, :], float("-inf"))
        return causal[None, None, :, :] + pad_bias
