# case: causal-lm-engine-cache-is-causal
# modelled-on: open-lm-engine/lm-engine https://github.com/open-lm-engine/lm-engine/pull/498
# label: buggy
# pattern: a training/inference library's attention block: keys and values are appended to a generation cache object before SDPA, the additive causal+padding mask is only materialised when there is padding, and otherwise SDPA is asked to build the causal mask itself
# why: during cached decoding without padding the query holds only the new token(s) while the keys include the whole cache; SDPA's is_causal=True aligns the mask top-left, so a one-token decode step sees only the first key; flagged in review of PR #498 (fix: is_causal only when the query and key lengths are equal)
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


def _prepare_causal_attention_mask(
    attention_mask: torch.Tensor, batch_size: int, query_length: int, key_length: int, device: torch.device
) -> torch.Tensor:
    past_length = key_length - query_length

    if query_length > 1:
        # (batch_size, key_length)
        causal_mask = torch.empty((query_length, key_length), dtype=torch.bool, device=device)
        causal_mask[:, past_length:] = torch.tril(
            torch.ones(query_length, query_length, dtype=torch.bool, device=device)
        )
        if past_length > 0:
            causal_mask[:, :past_length] = True
        causal_mask = causal_mask.unsqueeze(0) & attention_mask.unsqueeze(1).to(dtype=torch.bool, device=device)
    else:
        causal_mask = attention_mask.unsqueeze(1).to(dtype=torch.bool, device=device)

    return causal_mask.unsqueeze(1)


@dataclass
class AttentionMaskInfo:
    attention_mask: torch.Tensor | None = None
    _causal_mask: torch.Tensor | None = field(default=None, repr=False)

    def get_causal_mask(self, query_length: int, key_length: int, dtype: torch.dtype) -> torch.Tensor | None:
        """Additive causal mask for `F.scaled_dot_product_attention`, or None when there is no padding to
        mask (in which case the caller should pass `is_causal=True` and let SDPA build the causal mask).
        """
        if self.attention_mask is None:
            return None

        B = self.attention_mask.size(0)
        device = self.attention_mask.device
        if (
            self._causal_mask is not None
            and self._causal_mask.size() == (B, 1, query_length, key_length)
            and self._causal_mask.dtype == dtype
        ):
            return self._causal_mask

        mask_value = torch.full([], torch.finfo(dtype).min, dtype=dtype, device=device)
        causal_mask = _prepare_causal_attention_mask(self.attention_mask, B, query_length, key_length, device)
        causal_mask = torch.where(causal_mask, ~causal_mask, mask_value)
        self._causal_mask = causal_mask
        return causal_mask


class Attention(nn.Module):
    def __init__(
        self,
        hidden_size: int,
        num_attention_heads: int,
        num_key_value_heads: int,
        causal: bool,
        softmax_dropout: float,
        attention_multiplier: float | None,
        layer_idx: int,
    ) -> None:
        super().__init__()
        self.causal = causal
        self.hidden_size = hidden_size
        self.num_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_dim = hidden_size // num_attention_heads
        self.num_groups = num_attention_heads // num_key_value_heads
        self.attention_multiplier = attention_multiplier
        self.layer_idx = layer_idx
        self.softmax_dropout_p = softmax_dropout

        self.c_attn = nn.Linear(
            hidden_size, hidden_size + 2 * num_key_value_heads * self.head_dim, bias=False
        )
        self.c_proj = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(
        self,
        x: torch.Tensor,
        attention_mask_info: AttentionMaskInfo,
        cache_params=None,
        rope_cos_sin: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> torch.Tensor:
        batch_size, query_length = x.shape[:2]

        x = self.c_attn(x)
        x = x.view(batch_size, query_length, self.num_key_value_heads, -1)
        q, k, v = torch.split(x, (self.num_groups * self.head_dim, self.head_dim, self.head_dim), dim=-1)
        q = q.reshape(batch_size, query_length, self.num_heads, self.head_dim)

        if rope_cos_sin is not None:
            q, k = [apply_rotary_pos_emb(i, rope_cos_sin) for i in (q, k)]

        if cache_params is not None:
            k, v = cache_params.update(key_states=k, value_states=v, layer_idx=self.layer_idx)

        x = F.scaled_dot_product_attention(
            query=q.transpose(1, 2),
            key=k.transpose(1, 2),
            value=v.transpose(1, 2),
            attn_mask=attention_mask_info.get_causal_mask(
                query_length=q.size(1), key_length=k.size(1), dtype=q.dtype
            ),
            dropout_p=self.softmax_dropout_p if self.training else 0,
            is_causal=self.causal if attention_mask_info.attention_mask is None else False,  # expect: ATT008
            scale=self.attention_multiplier,
            enable_gqa=True,
        )

        x = x.transpose(1, 2)
        x = x.flatten(-2, -1)
        return self.c_proj(x)


def apply_rotary_pos_emb(x: torch.Tensor, cos_sin: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    cos, sin = cos_sin
    x1, x2 = x.chunk(2, dim=-1)
    rotated = torch.cat((-x2, x1), dim=-1)
    return (x * cos) + (rotated * sin)
