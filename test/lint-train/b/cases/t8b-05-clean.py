# case: t8b-05-clean
# modelled-on: nbrg-ppcu/prokbert https://github.com/nbrg-ppcu/prokbert/commit/79d1d0af500298053ae5fed4cbfdf7ee5fb8adcd
# label: correct
# class: clean
# pattern: a genomic BERT's sequence-classification head with attention pooling: a Linear(hidden, 1) scores each token (B, L, 1), the scores are divided by a learnable clamped temperature, padding is hidden with masked_fill(~keep, -inf) where keep comes from an HF attention mask normalised from (B, L), (B, 1, L) or (B, 1, 1, L), and the weights are a softmax over dim=1 used to sum the hidden states
# why: correct: the scores are (B, L, 1) so dim=1 is the token axis (the last axis has length 1); the keep mask is True at real tokens (mask > 0) and ~keep hides the padding; a row with no real token is given its first token back so the softmax never sees an all -inf row; a temperature, not 1/sqrt(d), is the right scale for one scalar score per token
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/nbrg-ppcu/prokbert https://github.com/nbrg-ppcu/prokbert/commit/79d1d0af500298053ae5fed4cbfdf7ee5fb8adcd src/prokbert/models.py
from typing import Optional

import torch
import torch.nn as nn


class PooledSequenceClassifier(nn.Module):
    def __init__(self, encoder: nn.Module, hidden_size: int, num_labels: int, t_min: float = 0.1, t_max: float = 10.0):
        super().__init__()
        self.encoder = encoder
        self.weighting_layer = nn.Linear(hidden_size, 1)
        self.log_temperature = nn.Parameter(torch.zeros(()))
        self.t_min, self.t_max = t_min, t_max
        self.norm = nn.LayerNorm(hidden_size)
        self.fc1 = nn.Linear(hidden_size, hidden_size // 2)
        self.fc2 = nn.Linear(hidden_size // 2, num_labels)
        with torch.no_grad():  # neutral start: uniform pooling over the real tokens
            nn.init.zeros_(self.weighting_layer.weight)
            nn.init.zeros_(self.weighting_layer.bias)

    def _temperature(self, device: torch.device) -> torch.Tensor:
        return torch.clamp(torch.exp(self.log_temperature.to(device)), min=self.t_min, max=self.t_max)

    @staticmethod
    def _keep_mask(attention_mask: Optional[torch.Tensor]) -> Optional[torch.Tensor]:
        """(B, L) bool, True = keep the token; accepts (B, L), (B, 1, L) and (B, 1, 1, L)."""
        if attention_mask is None:
            return None
        mask = attention_mask
        if mask.dim() == 4:
            mask = mask.squeeze(1).squeeze(1)
        elif mask.dim() == 3:
            mask = mask.squeeze(1)
        return mask > 0

    def forward(self, input_ids: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        hidden = self.encoder(input_ids, attention_mask=attention_mask)[0]  # (B, L, H)

        scores = self.weighting_layer(hidden)  # (B, L, 1)
        scores = scores / self._temperature(scores.device)

        keep = self._keep_mask(attention_mask)
        if keep is not None:
            empty = keep.sum(dim=1) == 0
            if empty.any():
                keep = keep.clone()
                keep[empty, 0] = True
            scores = scores.masked_fill(~keep.unsqueeze(-1), float("-inf"))

        weights = torch.softmax(scores.float(), dim=1).to(hidden.dtype)  # (B, L, 1)
        pooled = torch.sum(weights * hidden, dim=1)  # (B, H)
        return self.fc2(torch.nn.functional.gelu(self.fc1(self.norm(pooled))))
