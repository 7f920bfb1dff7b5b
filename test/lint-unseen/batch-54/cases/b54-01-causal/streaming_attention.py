# case: b54-01-causal
# modelled-on: MagellaX/StreamAttn https://github.com/MagellaX/StreamAttn/commit/758d9a7b410175396c14b793c8b1b8aa0b161f2e
# label: buggy
# class: real-bug
# pattern: a drop-in attention module for decoder LMs (a folder: the GPT-2 adapter that forwards Hugging Face's layer_past and use_cache and always asks for causal attention, the module that projects hidden states to (B, T, H, D) and concatenates the cached keys and values in front of the new ones along the time axis, and the online-softmax kernel's PyTorch fallback that flattens batch and heads and calls scaled_dot_product_attention with is_causal taken from the causal flag when no mask is passed)
# why: buggy: the module is meant to replace GPT-2's attention during generation (the adapter passes layer_past and use_cache through and the code says causal is the default "for autoregressive models"), but with a cache the decode step has one new query against S cached-plus-new keys, and SDPA's is_causal=True builds a top-left triangle, so that query may only see the first key of the cache instead of the whole past; nothing shifts the mask to the bottom-right (no offset, no explicit mask when the key length exceeds the query length) and the adapter drops the attention_mask, so the fallback always takes the is_causal path
# source: https://github.com/MagellaX/StreamAttn https://github.com/MagellaX/StreamAttn/commit/758d9a7b410175396c14b793c8b1b8aa0b161f2e stream_attention/core/attention.py
from typing import Optional, Tuple

import torch
import torch.nn as nn

from online_attention import OnlineSoftmaxAttention


class StreamingAttention(nn.Module):
    """Attention block that can take hidden states or explicit q/k/v of shape [B, T, H, D]."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.n_heads = cfg.num_heads
        self.d_head = cfg.head_dim
        width = self.n_heads * self.d_head
        self.with_proj = cfg.use_qkv_projections
        if self.with_proj:
            self.wq = nn.Linear(width, width, bias=False)
            self.wk = nn.Linear(width, width, bias=False)
            self.wv = nn.Linear(width, width, bias=False)
            self.wo = nn.Linear(width, width, bias=False)
        self.kernel = OnlineSoftmaxAttention(self.n_heads, self.d_head, dropout=cfg.dropout)

    def _split(self, t: torch.Tensor, b: int, n: int) -> torch.Tensor:
        return t.reshape(b, n, self.n_heads, self.d_head)

    def forward(
        self,
        hidden_states: Optional[torch.Tensor] = None,
        attention_mask: Optional[torch.Tensor] = None,
        past_key_value: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
        use_cache: bool = False,
        q: Optional[torch.Tensor] = None,
        k: Optional[torch.Tensor] = None,
        v: Optional[torch.Tensor] = None,
        causal: bool = True,
    ):
        if q is None:
            if hidden_states is None:
                raise ValueError("pass hidden_states or q, k and v")
            b, n, _ = hidden_states.shape
            if self.with_proj:
                q = self._split(self.wq(hidden_states), b, n)
                k = self._split(self.wk(hidden_states), b, n)
                v = self._split(self.wv(hidden_states), b, n)
            else:
                q = k = v = self._split(hidden_states, b, n)

        # cached keys/values go in front of the new ones (time axis is dim 1)
        if past_key_value is not None:
            old_k, old_v = past_key_value
            k = torch.cat([old_k, k], dim=1)
            v = torch.cat([old_v, v], dim=1)

        out = self.kernel(q, k, v, causal=causal, attention_mask=attention_mask)

        if hidden_states is not None:
            out = out.reshape(out.shape[0], out.shape[1], -1)
            if self.with_proj:
                out = self.wo(out)
        if use_cache:
            return out, (k, v)
        return out
