# case: b56-08-clean
# modelled-on: openclimatefix/power_perceiver https://github.com/openclimatefix/power_perceiver/commit/013e4d9e14f1fb1ee6dd62c41842ead6d03c8780
# label: correct
# class: clean
# pattern: a solar-power nowcasting transformer, a folder: PV-system queries, a grid-supply-point query and satellite patch tokens are zero-padded to the model width and concatenated into one token sequence per (example, timestep); missing readings arrive as NaN, the padding mask is "any NaN in the token" and the NaNs are then zeroed; an encoder module stacks a TransformerEncoderLayer subclass that calls its nn.MultiheadAttention with every argument positional (query, key, value, key_padding_mask, need_weights, attn_mask) so a hook can request the weights
# why: correct: src_key_padding_mask is True for tokens that held a NaN, i.e. True = ignore, which is the encoder's convention, and the satellite tokens are never NaN, so no row loses every key; the positional call follows nn.MultiheadAttention.forward's parameter order exactly (the fourth argument is key_padding_mask, the sixth attn_mask, here None), so the mask reaches the right parameter; the scale is the module's own 1/sqrt(width / heads); no causal mask is wanted (the tokens of one timestep are a set)
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/openclimatefix/power_perceiver https://github.com/openclimatefix/power_perceiver/commit/013e4d9e14f1fb1ee6dd62c41842ead6d03c8780 power_perceiver/production/satellite_transformer.py
from dataclasses import dataclass

import einops
import torch
from torch import nn

from encoder_layers import StackedEncoder

WIDTH = 256  # divisible by HEADS
HEADS = 32


def pad_features(t: torch.Tensor, width: int) -> torch.Tensor:
    missing = width - t.shape[-1]
    assert missing >= 0, (width, t.shape)
    if missing:
        t = torch.cat((t, t.new_zeros(*t.shape[:2], missing)), dim=2)
    return t


@dataclass(eq=False)
class SatellitePowerModel(nn.Module):
    width: int = WIDTH
    heads: int = HEADS
    p_drop: float = 0.0
    depth: int = 8

    def __post_init__(self):
        super().__init__()
        self.encoder = StackedEncoder(width=self.width, heads=self.heads, p_drop=self.p_drop, tie_layers=False, depth=self.depth)

    def forward(self, pv_q: torch.Tensor, gsp_q: torch.Tensor, sat_tokens: torch.Tensor, n_examples: int, n_steps: int):
        # each input: (example * time, tokens, features); PV readings of absent systems are NaN
        pv_q = pad_features(pv_q, self.width)
        gsp_q = pad_features(gsp_q, self.width)
        sat_tokens = pad_features(sat_tokens, self.width)
        tokens = torch.cat((pv_q, gsp_q, sat_tokens), dim=1)

        absent = tokens.isnan().any(dim=2)  # True = the encoder must ignore this token
        tokens = tokens.nan_to_num(0)

        out = tokens + self.encoder(tokens.float(), src_key_padding_mask=absent)
        out = einops.rearrange(out, "(example time) ... -> example time ...", example=n_examples, time=n_steps)

        first_gsp = pv_q.shape[1]
        return out[:, :, :first_gsp], out[:, :, first_gsp : first_gsp + gsp_q.shape[1]]
