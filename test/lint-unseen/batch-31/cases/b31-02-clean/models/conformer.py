# case: b31-02-clean
# modelled-on: Mikeblackbelt/TUSZ-Conformer-Prediction https://github.com/Mikeblackbelt/TUSZ-Conformer-Prediction/commit/8311e562054c3ceb28fd68144170ed51e9d8c2d9
# label: correct
# class: clean
# pattern: a seizure-forecasting model for scalp EEG: a convolutional front-end turns a recording window into patch tokens, a stack of pre-norm blocks (models/blocks.py) runs nn.MultiheadAttention with a float causal mask that this module builds as torch.triu(torch.full((L, L), -inf), diagonal=1) and passes to every block as attn_mask; a next-token head rolls the sequence forward step by step by re-encoding the whole, growing token sequence (no key/value cache), and the classifier heads read the re-encoded preictal + forecast span
# why: correct: a float attn_mask is added to the scores, so -inf on the strictly-upper triangle blocks exactly the future tokens and 0 keeps the past and the diagonal; every row keeps its diagonal, so -inf leaves no row fully masked; generation rebuilds the L x L mask for the current length each step because it re-encodes everything (there is no cache whose length could differ from the queries'); the attention scale is nn.MultiheadAttention's own
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Mikeblackbelt/TUSZ-Conformer-Prediction https://github.com/Mikeblackbelt/TUSZ-Conformer-Prediction/commit/8311e562054c3ceb28fd68144170ed51e9d8c2d9 models/conformer.py
"""
Causal EEG conformer: forecast the next patch tokens, then detect and type the seizure.
"""

from __future__ import annotations

from typing import Dict, Optional

import torch
import torch.nn as nn

from models.blocks import CausalTransformerEncoderBlock, ConvFrontEnd, PositionalEncoding


class CausalEEGConformer(nn.Module):
    def __init__(
        self,
        n_channels: int,
        embed_dim: int = 128,
        depth: int = 4,
        num_heads: int = 4,
        ffn_dim: int = 512,
        stride: int = 10,
        dropout: float = 0.3,
        max_len: int = 2000,
        num_classes: int = 2,
        default_horizon_tokens: int = 10,
    ):
        super().__init__()
        self.embed_dim = embed_dim
        self.default_horizon_tokens = default_horizon_tokens

        self.front_end = ConvFrontEnd(n_channels=n_channels, embed_dim=embed_dim, stride=stride, dropout=dropout)
        self.pos_encoder = PositionalEncoding(embed_dim=embed_dim, max_len=max_len)
        self.blocks = nn.ModuleList(
            [CausalTransformerEncoderBlock(embed_dim, num_heads, ffn_dim, dropout) for _ in range(depth)]
        )
        self.ln_f = nn.LayerNorm(embed_dim)

        self.pred_head = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.GELU(), nn.Linear(embed_dim, embed_dim))
        self.occurrence_head = nn.Linear(embed_dim, 1)
        self.onset_head = nn.Linear(embed_dim, 1)
        self.type_head = nn.Linear(embed_dim, num_classes)

    def _generate_causal_mask(self, seq_len: int, device: torch.device) -> torch.Tensor:
        return torch.triu(torch.full((seq_len, seq_len), float("-inf"), device=device), diagonal=1)

    def encode_tokens(self, tokens: torch.Tensor) -> torch.Tensor:
        seq_len = tokens.shape[1]
        h = self.pos_encoder(tokens)
        causal_mask = self._generate_causal_mask(seq_len, device=tokens.device)
        for block in self.blocks:
            h = block(h, causal_mask)
        return self.ln_f(h)

    def generate_horizon(self, seed_tokens: torch.Tensor, horizon_steps: Optional[int] = None) -> torch.Tensor:
        steps = horizon_steps if horizon_steps is not None else self.default_horizon_tokens
        curr_tokens = seed_tokens.clone()
        generated = []
        for _ in range(steps):
            h_encoded = self.encode_tokens(curr_tokens)
            next_token = self.pred_head(h_encoded[:, -1:, :])
            generated.append(next_token)
            curr_tokens = torch.cat([curr_tokens, next_token], dim=1)
        if not generated:
            return seed_tokens.new_zeros(seed_tokens.shape[0], 0, self.embed_dim)
        return torch.cat(generated, dim=1)

    def forward(
        self,
        x: torch.Tensor,
        horizon_steps: Optional[int] = None,
        generate_horizon_tokens: bool = False,
    ) -> Dict[str, torch.Tensor]:
        steps = horizon_steps if horizon_steps is not None else self.default_horizon_tokens

        preictal_tokens = self.front_end(x)
        preictal_features = self.encode_tokens(preictal_tokens)
        pred_next_tokens = self.pred_head(preictal_features)

        if generate_horizon_tokens:
            horizon_tokens = self.generate_horizon(preictal_tokens, horizon_steps=steps)
        else:
            horizon_tokens = pred_next_tokens[:, -steps:, :]

        combined = torch.cat([preictal_tokens, horizon_tokens.detach()], dim=1)
        full_features = self.encode_tokens(combined)
        pooled = full_features.mean(dim=1)

        return {
            "pred_next_tokens": pred_next_tokens,
            "preictal_tokens": preictal_tokens,
            "occurrence_logits": self.occurrence_head(pooled).squeeze(-1),
            "onset_preds": self.onset_head(pooled).squeeze(-1),
            "type_logits": self.type_head(pooled),
        }
