# case: b33-02-clean
# modelled-on: takumiecd/conformer-ctc-scratch https://github.com/takumiecd/conformer-ctc-scratch/commit/063010644bf5c1b7068709a28a4f875412273c2e
# label: correct
# class: clean
# pattern: a Conformer-CTC speech recogniser written from scratch: model/attention.py holds Transformer-XL relative-position self-attention (content scores (q + u) @ k^T plus relative-shifted position scores (q + v) @ p^T, the sum times 1/sqrt(d_head), masked_fill(mask == 0, -inf), softmax over the last axis); this module subsamples the frames by 4 with two stride-2 convolutions, subsamples the padding mask (batch, time) that is True on real frames with mask[:, ::4] (padding the mask with ones when it comes out short), and hands the same mask to every block
# why: correct: the mask is a keep mask (True on real frames; the CTC output lengths are its row sums), so mask == 0 selects exactly the padded frames as keys and fills them with -inf; every utterance keeps at least one real frame, so no row is all -inf; the scale multiplies the summed content and position scores once, by one head's width; both transposes swap the last two axes of (batch, heads, time, d_head) tensors
# looks-like: ATT002, ATT003, ATT005, ATT007
# source: https://github.com/takumiecd/conformer-ctc-scratch https://github.com/takumiecd/conformer-ctc-scratch/commit/063010644bf5c1b7068709a28a4f875412273c2e src/model/conformer.py
"""Conformer encoder with a CTC head."""

from typing import Optional, Tuple

import torch
import torch.nn as nn

from .attention import MultiHeadSelfAttention, RelativePositionalEncoding


class Conv2dSubsampling(nn.Module):
    def __init__(self, input_dim: int, d_model: int, dropout: float = 0.1):
        super().__init__()
        self.conv1 = nn.Conv2d(1, d_model, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(d_model, d_model, kernel_size=3, stride=2, padding=1)
        conv_out_dim = ((input_dim + 1) // 2 + 1) // 2
        self.linear = nn.Linear(d_model * conv_out_dim, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
        x = torch.relu(self.conv2(torch.relu(self.conv1(x.unsqueeze(1)))))
        batch, channels, time, freq = x.size()
        x = x.permute(0, 2, 1, 3).contiguous().view(batch, time, channels * freq)
        x = self.dropout(self.linear(x))
        if mask is not None:
            mask = mask[:, ::4]
            if mask.size(1) > time:
                mask = mask[:, :time]
            elif mask.size(1) < time:
                pad = torch.ones(mask.size(0), time - mask.size(1), dtype=mask.dtype, device=mask.device)
                mask = torch.cat([mask, pad], dim=1)
        return x, mask


class ConformerBlock(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        self.ffn1 = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 4 * d_model), nn.SiLU(),
                                  nn.Dropout(dropout), nn.Linear(4 * d_model, d_model))
        self.attn_layer_norm = nn.LayerNorm(d_model)
        self.attention = MultiHeadSelfAttention(d_model=d_model, num_heads=num_heads, dropout=dropout)
        self.attn_dropout = nn.Dropout(dropout)
        self.ffn2 = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 4 * d_model), nn.SiLU(),
                                  nn.Dropout(dropout), nn.Linear(4 * d_model, d_model))
        self.final_layer_norm = nn.LayerNorm(d_model)

    def forward(self, x, pos_enc, mask=None):
        x = x + 0.5 * self.ffn1(x)
        x = x + self.attn_dropout(self.attention(self.attn_layer_norm(x), pos_enc, mask))
        x = x + 0.5 * self.ffn2(x)
        return self.final_layer_norm(x)


class ConformerCTC(nn.Module):
    def __init__(self, vocab_size: int, input_dim: int = 80, d_model: int = 256,
                 num_layers: int = 12, num_heads: int = 4, dropout: float = 0.1):
        super().__init__()
        self.subsampling = Conv2dSubsampling(input_dim, d_model, dropout)
        self.pos_enc = RelativePositionalEncoding(d_model)
        self.layers = nn.ModuleList([ConformerBlock(d_model, num_heads, dropout) for _ in range(num_layers)])
        self.ctc_head = nn.Linear(d_model, vocab_size)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
        # mask: (batch, time), True for valid frames
        x, mask = self.subsampling(x, mask)
        pos_enc = self.pos_enc(x)
        for layer in self.layers:
            x = layer(x, pos_enc, mask)
        log_probs = nn.functional.log_softmax(self.ctc_head(x), dim=-1)
        if mask is not None:
            output_lengths = mask.sum(dim=1).long()
        else:
            output_lengths = torch.full((x.size(0),), log_probs.size(1), dtype=torch.long, device=x.device)
        return log_probs, output_lengths
