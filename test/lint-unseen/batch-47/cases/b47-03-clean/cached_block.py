# case: b47-03-clean
# modelled-on: johnchmura/kv-cache-triton https://github.com/johnchmura/kv-cache-triton/commit/acf2f746e0bc2621b69c361591779df9b5460c01
# label: correct
# class: clean
# pattern: a GPT-2 attention block with a growing key/value cache that hands its attention to a Triton flash-attention kernel of the project (a folder: the kernel and its wrapper attention_forward(q, k, v, is_causal), and the block that calls it); is_causal is set whenever no mask is given and more than one query arrives, also when earlier keys are already cached; otherwise (a caller's mask, or no GPU) the block falls back on SDPA with an explicit mask
# why: correct: the project's kernel aligns its causal mask bottom-right (each query row sits at absolute position n_k - n_q + r, keys up to that position are kept), so a multi-token chunk after a cached prefix sees the whole prefix and its own past, and a single decode query is not masked at all; this is not SDPA's top-left is_causal; a caller mask always goes to SDPA; the kernel scales the scores by D ** -0.5 itself and the fallback SDPA uses its default 1/sqrt(D) with either the caller's mask or a boolean keep-mask built bottom-right by tril(n_k - T), never is_causal
# looks-like: ATT003, ATT008
# source: https://github.com/johnchmura/kv-cache-triton https://github.com/johnchmura/kv-cache-triton/commit/acf2f746e0bc2621b69c361591779df9b5460c01 models/gpt2/gpt2_triton.py
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

from tiled_attention import attention_forward


class KVCache:
    def __init__(self):
        self.layers: List[Optional[Tuple[torch.Tensor, torch.Tensor]]] = []

    def update(self, layer: int, k: torch.Tensor, v: torch.Tensor):
        while len(self.layers) <= layer:
            self.layers.append(None)
        if self.layers[layer] is not None:
            pk, pv = self.layers[layer]
            k = torch.cat([pk, k], dim=2)
            v = torch.cat([pv, v], dim=2)
        self.layers[layer] = (k, v)
        return k, v


class TritonGPT2Attention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, layer_idx: int):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.layer_idx = layer_idx
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x: torch.Tensor, cache: Optional[KVCache] = None, attention_mask: Optional[torch.Tensor] = None):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        if cache is not None:
            k, v = cache.update(self.layer_idx, k, v)

        is_causal = attention_mask is None and q.shape[-2] > 1
        use_kernel = q.is_cuda and attention_mask is None
        if use_kernel:
            y = attention_forward(q, k, v, is_causal=is_causal)
        else:
            mask = attention_mask
            if mask is None and is_causal:
                n_k = k.shape[-2]
                mask = torch.ones(T, n_k, dtype=torch.bool, device=x.device).tril(n_k - T)
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        y = y.transpose(1, 2).reshape(B, T, C)
        return self.c_proj(y)
