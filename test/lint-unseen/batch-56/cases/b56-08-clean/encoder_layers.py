from dataclasses import dataclass
from typing import Optional

import torch
from torch import nn


class InspectableEncoderLayer(nn.TransformerEncoderLayer):
    """Same self-attention block as the parent, but every argument of the attention call is
    positional, so that a forward pre-hook can see (and switch on) need_weights."""

    def _sa_block(self, x: torch.Tensor, attn_mask: Optional[torch.Tensor],
                  key_padding_mask: Optional[torch.Tensor]) -> torch.Tensor:
        want_weights = False
        # nn.MultiheadAttention.forward(query, key, value, key_padding_mask, need_weights, attn_mask)
        out = self.self_attn(x, x, x, key_padding_mask, want_weights, attn_mask)[0]
        return self.dropout1(out)


@dataclass(eq=False)
class StackedEncoder(nn.Module):
    width: int
    heads: int = 8
    p_drop: float = 0.0
    tie_layers: bool = True
    depth: int = 4

    def __post_init__(self):
        super().__init__()
        layer = InspectableEncoderLayer(d_model=self.width, nhead=self.heads, dropout=self.p_drop, batch_first=True)
        if self.tie_layers:
            self.body = nn.Sequential(*([layer] * self.depth))
        else:
            self.body = nn.TransformerEncoder(encoder_layer=layer, num_layers=self.depth)

    def forward(self, *args, **kwargs):
        return self.body(*args, **kwargs)
