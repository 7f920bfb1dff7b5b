# case: b50-07-clean
# modelled-on: AntoDono/neur680-final-project https://github.com/AntoDono/neur680-final-project/commit/f273e92f831b44473997acc2dfc350dc10f59c22
# label: correct
# class: clean
# pattern: a folder: a feature-as-token transformer for tabular brain measures; widths and head counts come from a settings module (other file: WIDTH = 512, N_HEADS = 16); each scalar feature becomes a token, nn.TransformerEncoder mixes them, and a learned pooling query scores every token with an einsum "d,bfd->bf" divided by sqrt(WIDTH), followed by softmax over the feature axis and a weighted sum
# why: correct: the pooling query and the tokens have the full width WIDTH and the score is one dot product over that width (there are no heads in the pooling step), so 1/sqrt(WIDTH) is the 1/sqrt(d_k) of this attention; the 16 heads exist only inside nn.TransformerEncoder, which scales its own heads; scores are (B, F) and the softmax runs over F, the tokens being pooled; the einsum contracts the feature width of query and keys directly, no transpose is needed
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/AntoDono/neur680-final-project https://github.com/AntoDono/neur680-final-project/commit/f273e92f831b44473997acc2dfc350dc10f59c22 src/model.py
import math

import torch
import torch.nn as nn

import settings


class MarkerTransformer(nn.Module):
    """Each biomarker is a token: its value is projected and its identity embedded."""

    def __init__(
        self,
        n_markers: int,
        width: int = settings.WIDTH,
        heads: int = settings.N_HEADS,
        depth: int = settings.N_LAYERS,
        dropout: float = settings.DROPOUT,
    ):
        super().__init__()
        self.value_in = nn.Linear(1, width)
        self.marker_id = nn.Embedding(n_markers, width)
        layer = nn.TransformerEncoderLayer(
            d_model=width,
            nhead=heads,
            dim_feedforward=4 * width,
            dropout=dropout,
            batch_first=True,
            norm_first=True,
            activation="gelu",
        )
        self.mixer = nn.TransformerEncoder(layer, num_layers=depth)
        self.pool_query = nn.Parameter(0.02 * torch.randn(width))
        self.pool_temp = math.sqrt(width)
        self.classifier = nn.Sequential(
            nn.LayerNorm(width),
            nn.Linear(width, width // 2),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(width // 2, 1),
        )

    def pooled(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[1]
        tokens = self.value_in(x.unsqueeze(-1)) + self.marker_id(torch.arange(n, device=x.device))
        tokens = self.mixer(tokens)  # (B, F, W)
        logits = torch.einsum("d,bfd->bf", self.pool_query, tokens) / self.pool_temp
        alpha = torch.softmax(logits, dim=-1)  # over the F markers
        return torch.einsum("bf,bfd->bd", alpha, tokens)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.pooled(x)).squeeze(-1)
