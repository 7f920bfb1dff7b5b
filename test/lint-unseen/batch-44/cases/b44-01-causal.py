# case: b44-01-causal
# modelled-on: Asjad-Ilahi/danAI-55M https://github.com/Asjad-Ilahi/danAI-55M/commit/3aa392f0232ec8523b062b1cadce88bcab823fad
# label: buggy
# class: real-bug
# pattern: grouped-query attention of a small decoder-only LM with RoPE and a KV cache (keys/values of earlier steps concatenated on the sequence axis, KV heads repeated to the query heads); three paths: SDPA with is_causal when no mask is given, SDPA with an explicit boolean/additive document mask, and a manual fallback that builds its own causal triangle offset by the cached length (diagonal = kv_len - q_len + 1)
# why: buggy: with a cache and more than one new token (seq_len > 1, e.g. a chunked prefill or a multi-token continuation) the SDPA path passes is_causal=True, and PyTorch documents that is_causal aligns the causal mask top-left when the query is shorter than the keys, so query i sees only keys 0..i of the cached prefix and none of its own recent past; the class's own manual path aligns the triangle bottom-right (diagonal = kv_len - q_len + 1), which is the intended behaviour; the decode step (seq_len == 1, is_causal False) and the cache-free prefill are right. No fix commit exists (the repository's generate loop only prefills without a cache and then decodes one token), the label rests on SDPA's documented alignment and on the class's other path
# source: https://github.com/Asjad-Ilahi/danAI-55M https://github.com/Asjad-Ilahi/danAI-55M/commit/3aa392f0232ec8523b062b1cadce88bcab823fad src/model/attention.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedAttention(nn.Module):
    """Causal grouped-query self-attention; `rope` rotates (B, H, S, Dh) tensors given position ids."""

    def __init__(self, width: int, n_q: int, n_kv: int, rope: nn.Module, p_drop: float = 0.0):
        super().__init__()
        assert width % n_q == 0 and n_q % n_kv == 0
        self.n_q, self.n_kv = n_q, n_kv
        self.dh = width // n_q
        self.group = n_q // n_kv
        self.p_drop = p_drop
        self.wq = nn.Linear(width, n_q * self.dh, bias=False)
        self.wk = nn.Linear(width, n_kv * self.dh, bias=False)
        self.wv = nn.Linear(width, n_kv * self.dh, bias=False)
        self.wo = nn.Linear(n_q * self.dh, width, bias=False)
        self.rope = rope

    def _expand(self, t: torch.Tensor) -> torch.Tensor:
        b, h, s, d = t.shape
        return t[:, :, None].expand(b, h, self.group, s, d).reshape(b, h * self.group, s, d)

    def forward(
        self,
        h: torch.Tensor,
        doc_mask: Optional[torch.Tensor] = None,
        cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
        keep_cache: bool = False,
    ):
        bsz, n_new, _ = h.shape
        q = self.wq(h).view(bsz, n_new, self.n_q, self.dh).transpose(1, 2)
        k = self.wk(h).view(bsz, n_new, self.n_kv, self.dh).transpose(1, 2)
        v = self.wv(h).view(bsz, n_new, self.n_kv, self.dh).transpose(1, 2)

        offset = 0 if cache is None else cache[0].size(2)
        pos = torch.arange(offset, offset + n_new, device=h.device)[None].expand(bsz, -1)
        q, k = self.rope(q, pos), self.rope(k, pos)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        present = (k, v) if (cache is not None or keep_cache) else None
        if self.group > 1:
            k, v = self._expand(k), self._expand(v)

        p = self.p_drop if self.training else 0.0
        if doc_mask is None:
            # one new token needs no mask; a prompt (or a chunk of one) does
            needs_causal = cache is None or n_new > 1
            out = F.scaled_dot_product_attention(
                q, k, v,
                dropout_p=p,
                is_causal=needs_causal,  # expect: ATT008
            )
        elif doc_mask.dtype == torch.bool:
            bias = torch.zeros_like(doc_mask, dtype=q.dtype).masked_fill(~doc_mask, float("-inf"))
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, dropout_p=p, is_causal=False)
        else:
            out = self._reference(q, k, v, doc_mask)
        out = out.transpose(1, 2).reshape(bsz, n_new, self.n_q * self.dh)
        return self.wo(out), present

    def _reference(self, q, k, v, additive):
        """softmax(q k^T / sqrt(dh) + mask) v, with the causal triangle aligned to the newest keys."""
        n_q, n_k = q.size(2), k.size(2)
        logits = (q @ k.transpose(-2, -1)) / math.sqrt(self.dh)
        ahead = torch.ones(n_q, n_k, dtype=torch.bool, device=q.device).triu(n_k - n_q + 1)
        logits = logits.masked_fill(ahead, float("-inf")) + additive
        weights = torch.softmax(logits.float(), dim=-1).to(q.dtype)
        return weights @ v
