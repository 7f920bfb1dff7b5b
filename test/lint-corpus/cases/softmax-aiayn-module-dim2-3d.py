# case: softmax-aiayn-module-dim2-3d
# modelled-on: jadore801120/attention-is-all-you-need-pytorch https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/52
# label: correct
# pattern: the fixed module: nn.Softmax(dim=2) on 3-D (n_head * B, L, S) bmm scores; temperature is sqrt(d_k) passed in from the caller; the padding mask is True at pads
# why: dim 2 is the last (key) axis of a 3-D tensor; masked_fill with a True-means-pad mask removes the pads
# looks-like: ATT001, ATT003, ATT002
import numpy as np
import torch
import torch.nn as nn


def get_attn_key_pad_mask(seq_k: torch.Tensor, seq_q: torch.Tensor, pad: int) -> torch.Tensor:
    """(B, L, S) bool, True where the key is padding."""
    len_q = seq_q.size(1)
    padding_mask = seq_k.eq(pad)  # (B, S)
    return padding_mask.unsqueeze(1).expand(-1, len_q, -1)


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature: float, attn_dropout: float = 0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)
        self.softmax = nn.Softmax(dim=2)

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.transpose(1, 2))  # (n*B, L, S)
        attn = attn / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -np.inf)
        attn = self.softmax(attn)
        attn = self.dropout(attn)
        return torch.bmm(attn, v), attn


def build_attention(d_k: int) -> ScaledDotProductAttention:
    return ScaledDotProductAttention(temperature=np.power(d_k, 0.5))
