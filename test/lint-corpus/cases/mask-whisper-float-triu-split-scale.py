# case: mask-whisper-float-triu-split-scale
# modelled-on: openai/whisper https://github.com/openai/whisper/blob/main/whisper/model.py
# label: correct
# pattern: Whisper's decoder: a float causal mask filled with -inf then triu_(1) (additive), the scale d**-0.25 applied to both q and k, k permuted straight to (B, H, d, S) so qk = q @ k needs no transpose, kv-cache decoding with one query
# why: the -inf triu is an additive mask with zeros on and below the diagonal; two factors of d**-0.25 make 1/sqrt(d); permute(0, 2, 3, 1) is the key transpose; the single decoding query sees mask[:1, :1] = 0
# looks-like: ATT002, ATT003, ATT005, ATT007
from typing import Optional

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_state: int, n_head: int):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)
        self.out = nn.Linear(n_state, n_state)

    def forward(self, x: Tensor, xa: Optional[Tensor] = None, mask: Optional[Tensor] = None, kv_cache: Optional[dict] = None):
        q = self.query(x)
        if kv_cache is None or xa is None or self.key not in kv_cache:
            k = self.key(x if xa is None else xa)
            v = self.value(x if xa is None else xa)
        else:
            k = kv_cache[self.key]
            v = kv_cache[self.value]
        wv = self.qkv_attention(q, k, v, mask)
        return self.out(wv)

    def qkv_attention(self, q: Tensor, k: Tensor, v: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        n_batch, n_ctx, n_state = q.shape
        scale = (n_state // self.n_head) ** -0.25
        q = q.view(*q.shape[:2], self.n_head, -1).permute(0, 2, 1, 3) * scale  # (B, H, T, d)
        k = k.view(*k.shape[:2], self.n_head, -1).permute(0, 2, 3, 1) * scale  # (B, H, d, S)
        v = v.view(*v.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)  # (B, H, S, d)
        qk = q @ k  # (B, H, T, S)
        if mask is not None:
            qk = qk + mask[:n_ctx, :n_ctx]
        qk = qk.float()
        w = F.softmax(qk, dim=-1).to(q.dtype)
        return (w @ v).permute(0, 2, 1, 3).flatten(start_dim=2)


class TextDecoder(nn.Module):
    def __init__(self, n_vocab: int, n_ctx: int, n_state: int, n_head: int):
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, n_state)
        self.positional_embedding = nn.Parameter(torch.empty(n_ctx, n_state))
        self.attn = MultiHeadAttention(n_state, n_head)
        mask = torch.empty(n_ctx, n_ctx).fill_(-np.inf).triu_(1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, x: Tensor, kv_cache: Optional[dict] = None) -> Tensor:
        offset = next(iter(kv_cache.values())).shape[1] if kv_cache else 0
        h = self.token_embedding(x) + self.positional_embedding[offset : offset + x.shape[-1]]
        return self.attn(h, mask=self.mask, kv_cache=kv_cache)
