# case: b6-35-clean
# modelled-on: pytorch-labs/gpt-fast https://github.com/pytorch-labs/gpt-fast/commit/32971d3129541c5bfb4f715abc33d1c5f408d204
# label: correct
# class: clean
# pattern: a compact LLaMA-style inference stack: setup_caches preallocates a static KV cache per layer and a (max_seq, max_seq) boolean tril buffer; forward selects the buffer's rows at input_pos as the mask, each attention layer writes its keys and values at input_pos into the cache, repeats the grouped KV heads and calls SDPA with attn_mask=mask and no is_causal; the generation module prefills the prompt, decodes one token at a time, and verifies speculative drafts by feeding k + 1 tokens at once after the cached prefix
# why: correct: the mask rows are taken at the queries' absolute positions over the whole cache, so a prefill, a one-token step and a multi-token verification step after cached keys are all causal (bottom-right), which is_causal=True could not express for L < S; the boolean mask keeps the True positions as SDPA expects, and unwritten cache slots lie in the future columns the mask hides
# looks-like: ATT002, ATT008
# source: https://github.com/pytorch-labs/gpt-fast https://github.com/pytorch-labs/gpt-fast/commit/32971d3129541c5bfb4f715abc33d1c5f408d204 model.py
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor
from torch.nn import functional as F


class KVCache(nn.Module):
    def __init__(self, max_batch_size, max_seq_length, n_heads, head_dim, dtype=torch.bfloat16):
        super().__init__()
        cache_shape = (max_batch_size, n_heads, max_seq_length, head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape, dtype=dtype))
        self.register_buffer("v_cache", torch.zeros(cache_shape, dtype=dtype))

    def update(self, input_pos, k_val, v_val):
        # input_pos: [S], k_val: [B, H, S, D]
        assert input_pos.shape[0] == k_val.shape[2]
        k_out, v_out = self.k_cache, self.v_cache
        k_out[:, :, input_pos] = k_val
        v_out[:, :, input_pos] = v_val
        return k_out, v_out


class Attention(nn.Module):
    def __init__(self, dim, n_head, n_local_heads):
        super().__init__()
        self.dim, self.n_head, self.n_local_heads = dim, n_head, n_local_heads
        self.head_dim = dim // n_head
        self.wqkv = nn.Linear(dim, (n_head + 2 * n_local_heads) * self.head_dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.kv_cache: Optional[KVCache] = None

    def forward(self, x: Tensor, mask: Tensor, input_pos: Optional[Tensor] = None) -> Tensor:
        bsz, seqlen, _ = x.shape
        kv_size = self.n_local_heads * self.head_dim
        q, k, v = self.wqkv(x).split([self.dim, kv_size, kv_size], dim=-1)
        q = q.view(bsz, seqlen, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(bsz, seqlen, self.n_local_heads, self.head_dim).transpose(1, 2)
        v = v.view(bsz, seqlen, self.n_local_heads, self.head_dim).transpose(1, 2)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        k = k.repeat_interleave(self.n_head // self.n_local_heads, dim=1)
        v = v.repeat_interleave(self.n_head // self.n_local_heads, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0)
        return self.wo(y.transpose(1, 2).contiguous().view(bsz, seqlen, self.dim))


class Transformer(nn.Module):
    def __init__(self, vocab_size=32000, dim=4096, n_layer=32, n_head=32, n_local_heads=8):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([Attention(dim, n_head, n_local_heads) for _ in range(n_layer)])
        self.output = nn.Linear(dim, vocab_size, bias=False)
        self.n_head, self.n_local_heads, self.dim = n_head, n_local_heads, dim
        self.causal_mask: Optional[Tensor] = None

    def setup_caches(self, max_batch_size, max_seq_length):
        head_dim = self.dim // self.n_head
        for layer in self.layers:
            layer.kv_cache = KVCache(max_batch_size, max_seq_length, self.n_local_heads, head_dim, self.output.weight.dtype)
        self.causal_mask = torch.tril(torch.ones(max_seq_length, max_seq_length, dtype=torch.bool))

    def forward(self, idx: Tensor, input_pos: Tensor) -> Tensor:
        mask = self.causal_mask[None, None, input_pos]  # (1, 1, S, max_seq)
        x = self.tok_embeddings(idx)
        for layer in self.layers:
            x = x + layer(x, mask, input_pos)
        return self.output(x)
