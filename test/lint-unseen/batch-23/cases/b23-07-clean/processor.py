# case: b23-07-clean
# modelled-on: garibida/cross-image-attention https://github.com/garibida/cross-image-attention/commit/a624d05bc039fe3f204dd9d1ffe80798b5669bfb
# label: correct
# class: clean
# pattern: a diffusers attention processor for zero-shot appearance transfer: the batch holds the output, structure and appearance images; in the decoder's self-attention the output image's keys and values are swapped for another image's, q/k/v are split to (B, heads, N, head_dim) with view(...).transpose(1, 2), and a helper in a utils module computes softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1), optionally sharpening the output image's maps after the softmax (a contrast stretch around the row mean, clipped to [0, 1]) before multiplying with v
# why: correct: the helper receives per-head tensors, so q.size(-1) is the head width and math.sqrt(q.size(-1)) is sqrt(d_k); the softmax is over the keys; the post-softmax step is the paper's deliberate attention-map contrasting, not a mask applied too late (Stable Diffusion's self-attention has no padding to mask)
# looks-like: ATT003, ATT004, ATT006
# source: https://github.com/garibida/cross-image-attention https://github.com/garibida/cross-image-attention/commit/a624d05bc039fe3f204dd9d1ffe80798b5669bfb appearance_transfer_model.py
from typing import Optional

import torch

from utils import attn_ops

STRUCT_INDEX = 1
STYLE_INDEX = 2


class SwapAttentionProcessor:
    def __init__(self, owner, place_in_unet: str):
        self.owner = owner
        self.place = place_in_unet

    def __call__(self, attn, hidden_states: torch.Tensor, encoder_hidden_states: Optional[torch.Tensor] = None, attention_mask=None, temb=None, perform_swap: bool = False):
        residual = hidden_states
        ndim = hidden_states.ndim
        if ndim == 4:
            b, c, h, w = hidden_states.shape
            hidden_states = hidden_states.view(b, c, h * w).transpose(1, 2)
        b = hidden_states.shape[0]

        query = attn.to_q(hidden_states)
        is_cross = encoder_hidden_states is not None
        context = encoder_hidden_states if is_cross else hidden_states
        key = attn.to_k(context)
        value = attn.to_v(context)
        head_dim = key.shape[-1] // attn.heads

        mix = False
        if perform_swap and not is_cross and "up" in self.place and self.owner.enable_edit:
            if self.owner.should_mix(hidden_states):
                mix = True
                src = STRUCT_INDEX if self.owner.step % 5 == 0 and self.owner.step < 40 else STYLE_INDEX
                key[attn_ops.OUT_INDEX] = key[src]
                value[attn_ops.OUT_INDEX] = value[src]

        query = query.view(b, -1, attn.heads, head_dim).transpose(1, 2)
        key = key.view(b, -1, attn.heads, head_dim).transpose(1, 2)
        value = value.view(b, -1, attn.heads, head_dim).transpose(1, 2)

        out, weights = attn_ops.attend(
            query, key, value, edit_map=perform_swap and self.owner.enable_edit and mix, is_cross=is_cross,
            strength=self.owner.contrast_strength,
        )
        self.owner.record(weights, is_cross)

        out = out.transpose(1, 2).reshape(b, -1, attn.heads * head_dim).to(query.dtype)
        out = attn.to_out[1](attn.to_out[0](out))
        if ndim == 4:
            out = out.transpose(-1, -2).reshape(b, c, h, w)
        if attn.residual_connection:
            out = out + residual
        return out / attn.rescale_output_factor
