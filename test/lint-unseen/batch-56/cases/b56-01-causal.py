# case: b56-01-causal
# modelled-on: zalandoresearch/pytorch-ts https://github.com/zalandoresearch/pytorch-ts/commit/7860c9693d55b5c086867477cc33c89485ed0167
# label: buggy
# class: real-bug
# pattern: the decoder block of a PyTorch temporal fusion transformer for probabilistic forecasting: the LSTM-encoded context window and the prediction window are enriched with a static covariate, then an nn.MultiheadAttention (sequence-first) takes only the prediction-window positions as queries and the whole context + prediction sequence as keys and values, with a float causal mask registered once as a buffer from a "subsequent mask" helper over (prediction_length, context_length + prediction_length)
# why: buggy: the helper builds triu(ones(S, T)) == 1 over S = context + prediction keys and T = prediction queries and transposes it, so row t allows keys 0..t only: the mask is aligned top-left, while query t is the (context_length + t)-th position of the key sequence. The first forecast step therefore attends to nothing but the oldest context step, and no forecast step ever sees the recent context; the helper's name and the temporal fusion decoder's design (each position attends to the encoded past and to earlier forecast steps, as in the paper the model implements) call for a mask aligned bottom-right (allow s <= context_length + t). The repository has no fix (the later "TFT fixes" commit leaves the mask as it is).
# source: https://github.com/zalandoresearch/pytorch-ts https://github.com/zalandoresearch/pytorch-ts/commit/7860c9693d55b5c086867477cc33c89485ed0167 pts/model/tft/tft_modules.py
from typing import Optional

import torch
import torch.nn as nn


class GLU(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        value, gate = x.chunk(2, dim=-1)
        return value * torch.sigmoid(gate)


class Enrichment(nn.Module):
    """Gated residual block that mixes a static covariate vector into every time step."""

    def __init__(self, width: int, static_width: int = 0, p_drop: float = 0.0):
        super().__init__()
        self.inp = nn.Linear(width, width)
        self.ctx = nn.Linear(static_width, width, bias=False) if static_width else None
        self.hidden = nn.Sequential(nn.ELU(), nn.Linear(width, width), nn.Dropout(p_drop))
        self.gate = nn.Sequential(nn.Linear(width, 2 * width), GLU())
        self.norm = nn.LayerNorm(width)

    def forward(self, h: torch.Tensor, static: Optional[torch.Tensor] = None) -> torch.Tensor:
        a = self.inp(h)
        if self.ctx is not None and static is not None:
            a = a + self.ctx(static)
        z = self.hidden(a)
        return self.norm(h + self.gate(z))


class ForecastDecoder(nn.Module):
    def __init__(self, context_length: int, prediction_length: int, width: int, static_width: int, heads: int, p_drop: float = 0.0):
        super().__init__()
        self.context_length = context_length
        self.prediction_length = prediction_length

        self.enrich = Enrichment(width, static_width, p_drop)
        self.mha = nn.MultiheadAttention(embed_dim=width, num_heads=heads, dropout=p_drop)
        self.post_attn = nn.Sequential(nn.Linear(width, 2 * width), GLU())
        self.attn_norm = nn.LayerNorm(width)
        self.ffn = nn.Sequential(Enrichment(width, p_drop=p_drop), nn.Linear(width, 2 * width), GLU())
        self.ffn_norm = nn.LayerNorm(width)

        total = context_length + prediction_length
        self.register_buffer("future_mask", self.subsequent_mask(prediction_length, total))

    @staticmethod
    def subsequent_mask(n_queries: int, n_keys: int) -> torch.Tensor:
        allowed = (torch.triu(torch.ones(n_keys, n_queries)) == 1).transpose(0, 1)
        mask = torch.zeros(n_queries, n_keys)
        mask = mask.masked_fill(~allowed, float("-inf"))
        return mask

    def forward(self, h: torch.Tensor, static: torch.Tensor) -> torch.Tensor:
        # h: (batch, context_length + prediction_length, width), context first
        static = static.repeat((1, self.context_length + self.prediction_length, 1))
        residual = h[:, self.context_length :, :]
        h = self.enrich(h, static)

        seq_first = h.permute(1, 0, 2)
        out, _ = self.mha(
            query=seq_first[-self.prediction_length :],
            key=seq_first,
            value=seq_first,
            attn_mask=self.future_mask,  # expect: ATT008
        )
        out = self.post_attn(out.permute(1, 0, 2))

        h = self.attn_norm(h[:, self.context_length :, :] + out)
        h = self.ffn(h)
        return self.ffn_norm(h + residual)
