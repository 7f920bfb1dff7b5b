# case: fill-transformerlens-ignore-neg-1e5
# modelled-on: TransformerLensOrg/TransformerLens https://github.com/TransformerLensOrg/TransformerLens/pull/366
# label: buggy
# pattern: interpretability re-implementation of GPT-style attention with einops einsums and hook points; the causal mask is a registered buffer and the masked value is another buffer (IGNORE) substituted with torch.where inside a helper, in float32
# why: masked positions are set to -1e5, but real attention scores of some models (pythia-70m) fall below -1e5, so the masked future positions then outweigh real ones and the model attends outside the mask; PR #366 (fixing #318) set IGNORE to -inf (a finite fill that is not negative enough even in float32; a stretch of ATT007's wording)
from typing import Optional, Union

import einops
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from fancy_einsum import einsum
from jaxtyping import Float, Int

from transformer_lens.hook_points import HookPoint
from transformer_lens.HookedTransformerConfig import HookedTransformerConfig
from transformer_lens.utils import get_causal_mask_for_left_padding


class Attention(nn.Module):
    def __init__(
        self,
        cfg: HookedTransformerConfig,
        attn_type: str = "global",
        layer_id: Optional[int] = None,
    ):
        super().__init__()
        self.cfg = cfg
        self.W_Q = nn.Parameter(torch.empty(self.cfg.n_heads, self.cfg.d_model, self.cfg.d_head, dtype=cfg.dtype))
        self.W_K = nn.Parameter(torch.empty(self.cfg.n_heads, self.cfg.d_model, self.cfg.d_head, dtype=cfg.dtype))
        self.W_V = nn.Parameter(torch.empty(self.cfg.n_heads, self.cfg.d_model, self.cfg.d_head, dtype=cfg.dtype))
        self.W_O = nn.Parameter(torch.empty(self.cfg.n_heads, self.cfg.d_head, self.cfg.d_model, dtype=cfg.dtype))
        self.b_Q = nn.Parameter(torch.zeros(self.cfg.n_heads, self.cfg.d_head, dtype=cfg.dtype))
        self.b_K = nn.Parameter(torch.zeros(self.cfg.n_heads, self.cfg.d_head, dtype=cfg.dtype))
        self.b_V = nn.Parameter(torch.zeros(self.cfg.n_heads, self.cfg.d_head, dtype=cfg.dtype))
        self.b_O = nn.Parameter(torch.zeros(self.cfg.d_model, dtype=cfg.dtype))

        self.attn_type = attn_type
        # Create a max_ctx x max_ctx mask, with True iff that query position
        # can attend to that key position (query is first axis, key is second axis)
        causal_mask = torch.tril(torch.ones((self.cfg.n_ctx, self.cfg.n_ctx)).bool())
        if self.attn_type == "global":
            # For global attention, this is a lower triangular matrix - key <= query
            self.register_buffer("mask", causal_mask)
        elif self.attn_type == "local":
            # For local, this is banded, query - window_size < key <= query
            assert isinstance(self.cfg.window_size, int)
            self.register_buffer("mask", torch.triu(causal_mask, 1 - self.cfg.window_size))
        else:
            raise ValueError(f"Invalid attention type: {self.attn_type}")

        self.register_buffer("IGNORE", torch.tensor(-1e5))

        self.layer_id = layer_id

        # attn_scale is a constant that we divide the attention scores by pre-softmax.
        if self.cfg.use_attn_scale:
            self.attn_scale = np.sqrt(self.cfg.d_head)
        else:
            self.attn_scale = 1.0
        if self.cfg.scale_attn_by_inverse_layer_idx:
            self.attn_scale *= self.layer_id + 1

        self.hook_k = HookPoint()  # [batch, pos, head_index, d_head]
        self.hook_q = HookPoint()  # [batch, pos, head_index, d_head]
        self.hook_v = HookPoint()  # [batch, pos, head_index, d_head]
        self.hook_z = HookPoint()  # [batch, pos, head_index, d_head]
        self.hook_attn_scores = HookPoint()  # [batch, head_index, query_pos, key_pos]
        self.hook_pattern = HookPoint()  # [batch, head_index, query_pos, key_pos]

    def forward(
        self,
        query_input: Float[torch.Tensor, "batch pos d_model"],
        key_input: Float[torch.Tensor, "batch pos d_model"],
        value_input: Float[torch.Tensor, "batch pos d_model"],
        additive_attention_mask: Optional[Float[torch.Tensor, "batch 1 1 pos"]] = None,
        left_attention_mask: Optional[Int[torch.Tensor, "batch pos"]] = None,
    ) -> Float[torch.Tensor, "batch pos d_model"]:
        q = self.hook_q(
            einsum("batch pos d_model, head_index d_model d_head -> batch pos head_index d_head", query_input, self.W_Q)
            + self.b_Q
        )
        k = self.hook_k(
            einsum("batch pos d_model, head_index d_model d_head -> batch pos head_index d_head", key_input, self.W_K)
            + self.b_K
        )
        v = self.hook_v(
            einsum("batch pos d_model, head_index d_model d_head -> batch pos head_index d_head", value_input, self.W_V)
            + self.b_V
        )

        if self.cfg.dtype not in [torch.float32, torch.float64]:
            # If using 16 bits, increase the precision to avoid numerical instabilities
            q = q.to(torch.float32)
            k = k.to(torch.float32)

        attn_scores = (
            einsum(
                "batch query_pos head_index d_head, \
                    batch key_pos head_index d_head \
                    -> batch head_index query_pos key_pos",
                q,
                k,
            )
            / self.attn_scale
        )
        if self.cfg.attention_dir == "causal":
            # If causal attention, we mask it to only attend backwards. If bidirectional, we don't mask.
            attn_scores = self.apply_causal_mask(attn_scores, left_attention_mask)
        if additive_attention_mask is not None:
            attn_scores += additive_attention_mask

        attn_scores = self.hook_attn_scores(attn_scores)
        pattern = self.hook_pattern(F.softmax(attn_scores, dim=-1))
        pattern = pattern.to(self.cfg.dtype)
        z = self.hook_z(
            einsum(
                "batch key_pos head_index d_head, \
                batch head_index query_pos key_pos -> \
                batch query_pos head_index d_head",
                v,
                pattern,
            )
        )
        out = (
            einsum(
                "batch pos head_index d_head, \
                    head_index d_head d_model -> \
                    batch pos d_model",
                z,
                self.W_O,
            )
        ) + self.b_O
        return out

    def apply_causal_mask(
        self,
        attn_scores: Float[torch.Tensor, "batch head_index pos pos"],
        left_attention_mask: Optional[Int[torch.Tensor, "batch pos"]] = None,
    ):
        query_ctx_length = attn_scores.size(-2)
        key_ctx_length = attn_scores.size(-1)

        if left_attention_mask is None:
            # Right padding case: apply only a causal mask to the attention scores
            final_mask = self.mask[None, None]  # [1, 1, pos, pos]
        else:
            # Left padding case: a causal mask that also hides the left padding
            final_mask = get_causal_mask_for_left_padding(left_attention_mask)
            final_mask = final_mask.unsqueeze(1).to(attn_scores.device)  # [batch, 1, pos, pos]

        masked_attn_scores = torch.where(
            final_mask[:, :, :query_ctx_length, :key_ctx_length],
            attn_scores,
            self.IGNORE,  # expect: ATT007
        )
        return masked_attn_scores
