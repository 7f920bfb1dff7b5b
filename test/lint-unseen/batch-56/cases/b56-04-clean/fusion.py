import torch
import torch.nn as nn

from heads import SharedValueAttention
from length_masks import beyond_length


class FusionDecoder(nn.Module):
    def __init__(self, width: int = 64, heads: int = 4, p_drop: float = 0.1, causal: bool = True, fill: float = -1e9):
        super().__init__()
        self.causal = causal
        self.attention = SharedValueAttention(heads, width, p_drop, fill=fill)
        self.gate = nn.Sequential(nn.Linear(width, 2 * width), nn.GLU())
        self.norm = nn.LayerNorm(width)

    def hidden_positions(self, enc_lengths: torch.Tensor, dec_lengths: torch.Tensor) -> torch.Tensor:
        """(batch, decoder steps, encoder + decoder steps), True where a query must not look."""
        n_dec = int(dec_lengths.max())
        if self.causal:
            looked_at = torch.arange(n_dec, device=dec_lengths.device)
            predicting = torch.arange(n_dec, device=dec_lengths.device)[:, None]
            # not the step being predicted, nor anything after it
            dec_part = (looked_at >= predicting).unsqueeze(0).expand(enc_lengths.size(0), -1, -1)
        else:
            dec_part = beyond_length(n_dec, dec_lengths).unsqueeze(1).expand(-1, n_dec, -1)
        enc_part = beyond_length(int(enc_lengths.max()), enc_lengths).unsqueeze(1).expand(-1, n_dec, -1)
        return torch.cat([enc_part, dec_part], dim=2)

    def forward(self, enriched: torch.Tensor, enc_lengths: torch.Tensor, dec_lengths: torch.Tensor) -> torch.Tensor:
        # enriched: (batch, encoder steps + decoder steps, width), encoder first
        n_enc = int(enc_lengths.max())
        attended, _ = self.attention(
            q=enriched[:, n_enc:],
            k=enriched,
            v=enriched,
            hide=self.hidden_positions(enc_lengths, dec_lengths),
        )
        return self.norm(enriched[:, n_enc:] + self.gate(attended))
