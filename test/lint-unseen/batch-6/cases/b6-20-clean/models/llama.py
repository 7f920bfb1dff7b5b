# case: b6-20-clean
# modelled-on: fishaudio/fish-speech https://github.com/fishaudio/fish-speech/commit/3dd1f85c402ee6f0a17c2971d3b0dd8d881ca139
# label: correct
# class: clean
# pattern: a text-to-semantic-token LLM for speech synthesis: the collate function in a datasets module returns "attention_masks" that are True at the padding (ones, then False over the real tokens); the training step passes them as key_padding_mask; the model inverts them with logical_not, ANDs them with a tril causal buffer and gives the result to SDPA as attn_mask; without a padding mask the attention uses is_causal=True (training only, no cache), and generation passes the causal buffer's rows at input_pos over the preallocated KV cache as the mask
# why: correct: the batch's "attention_masks" despite the name mark padding (True = pad), the model's logical_not turns them into SDPA's convention (True = attend) before combining them with the causal keep mask; is_causal=True is reached only on full sequences without a cache; the cached path selects the causal rows of the absolute positions, so new tokens see the whole cache
# looks-like: ATT002, ATT008
# source: https://github.com/fishaudio/fish-speech https://github.com/fishaudio/fish-speech/commit/3dd1f85c402ee6f0a17c2971d3b0dd8d881ca139 fish_speech/models/text2semantic/llama.py
from typing import Optional

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import Tensor, nn


class KVCache(nn.Module):
    def __init__(self, max_batch_size, max_seq_len, n_heads, head_dim, dtype=torch.bfloat16):
        super().__init__()
        shape = (max_batch_size, n_heads, max_seq_len, head_dim)
        self.register_buffer("k_cache", torch.zeros(shape, dtype=dtype))
        self.register_buffer("v_cache", torch.zeros(shape, dtype=dtype))

    def update(self, input_pos, k_val, v_val):
        self.k_cache[:, :, input_pos] = k_val
        self.v_cache[:, :, input_pos] = v_val
        return self.k_cache, self.v_cache


class Attention(nn.Module):
    def __init__(self, dim, n_head, n_local_heads, dropout=0.0):
        super().__init__()
        self.n_head, self.n_local_heads = n_head, n_local_heads
        self.head_dim = dim // n_head
        self.wqkv = nn.Linear(dim, (n_head + 2 * n_local_heads) * self.head_dim, bias=False)
        self.wo = nn.Linear(n_head * self.head_dim, dim, bias=False)
        self.dropout = dropout
        self.kv_cache: Optional[KVCache] = None

    def forward(self, x: Tensor, mask: Optional[Tensor], input_pos: Optional[Tensor] = None) -> Tensor:
        bsz, seqlen, _ = x.shape
        q_size, kv_size = self.n_head * self.head_dim, self.n_local_heads * self.head_dim
        q, k, v = self.wqkv(x).split([q_size, kv_size, kv_size], dim=-1)
        q = q.view(bsz, seqlen, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(bsz, seqlen, self.n_local_heads, self.head_dim).transpose(1, 2)
        v = v.view(bsz, seqlen, self.n_local_heads, self.head_dim).transpose(1, 2)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        k = k.repeat_interleave(self.n_head // self.n_local_heads, dim=1)
        v = v.repeat_interleave(self.n_head // self.n_local_heads, dim=1)
        if mask is None:
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0, is_causal=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=self.dropout if self.training else 0.0)
        return self.wo(y.transpose(1, 2).contiguous().view(bsz, seqlen, q_size))


class BaseTransformer(nn.Module):
    def __init__(self, vocab_size, dim=1024, n_layer=12, n_head=16, n_local_heads=4, max_seq_len=4096):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([Attention(dim, n_head, n_local_heads) for _ in range(n_layer)])
        self.output = nn.Linear(dim, vocab_size, bias=False)
        self.max_seq_len = max_seq_len
        self.register_buffer("causal_mask", torch.tril(torch.ones(max_seq_len, max_seq_len, dtype=torch.bool)), persistent=False)

    def setup_caches(self, max_batch_size, n_head, head_dim):
        for layer in self.layers:
            layer.kv_cache = KVCache(max_batch_size, self.max_seq_len, layer.n_local_heads, head_dim)

    def forward(self, inp: Tensor, key_padding_mask: Optional[Tensor] = None):
        seq_len = inp.size(1)
        x = self.embeddings(inp)
        mask = None
        if key_padding_mask is not None:
            causal = rearrange(self.causal_mask[:seq_len, :seq_len], "q k -> 1 1 q k")
            atten_mask = rearrange(key_padding_mask, "b s -> b 1 1 s").logical_not()
            mask = causal & atten_mask
        for layer in self.layers:
            x = x + layer(x, mask)
        return self.output(x)

    def forward_generate(self, inp: Tensor, input_pos: Tensor):
        x = self.embeddings(inp)
        mask = self.causal_mask[None, None, input_pos, : self.max_seq_len]  # (1, 1, Q, K)
        for layer in self.layers:
            x = x + layer(x, mask, input_pos=input_pos)
        return self.output(x)
