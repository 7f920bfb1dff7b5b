# case: b25-03-clean
# modelled-on: simonFelix-Ai/TLinFormer https://github.com/simonFelix-Ai/TLinFormer/commit/487218dcf23d7c548aad508162b02278ee34e6ff
# label: correct
# class: clean
# pattern: the baseline decoder block of a linear-attention research LLM: a packed qkv projection is split into heads by a separate cache-aware module (mixin from another file); when the cache is on and already filled, only the newest position is projected, and the cached q, k and v of all earlier positions are concatenated in front of it (queries included) and stored back; RoPE is then applied from offset 0 to the whole q and k, and F.scaled_dot_product_attention(q, k, v, is_causal=True) is called with no attn_mask
# why: correct: because the cache keeps the queries too, q and k always have the same length on the generation path, so is_causal=True's top-left-aligned triangle is the right causal mask (the usual KV-cache pitfall, a single new query against a longer key sequence, cannot occur); RoPE is applied after the concatenation to unrotated cached tensors, so positions stay consistent; SDPA applies the 1/sqrt(head_dim) scale itself and there is no mask to combine with is_causal
# looks-like: ATT008, ATT003
# source: https://github.com/simonFelix-Ai/TLinFormer https://github.com/simonFelix-Ai/TLinFormer/commit/487218dcf23d7c548aad508162b02278ee34e6ff src/models/base_llm.py
import torch
from torch import nn
from torch.nn import functional as F

from tinylm.cache import CacheMixin


class QKVSplit(nn.Module, CacheMixin):
    def __init__(self, n_embd, n_head, shared):
        super().__init__()
        self._init_cache(shared)
        self.n_head = n_head
        self.head_dim = n_embd // n_head

    def forward(self, packed, cache_key="qkv"):
        b, length, _ = packed.shape
        append = False
        if self.cache_on() and self.has_cache(cache_key):
            packed = packed[:, -1:, :]
            length = 1
            append = True
        q, k, v = packed.chunk(3, dim=-1)
        q = q.view(b, length, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(b, length, self.n_head, self.head_dim).transpose(1, 2)
        v = v.view(b, length, self.n_head, self.head_dim).transpose(1, 2)
        if append:
            past_q, past_k, past_v = self.get_cache(cache_key)
            q = torch.cat([past_q, q], dim=2)
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        if self.cache_on():
            self.set_cache(cache_key, (q, k, v))
        return q, k, v


class DecoderBlock(nn.Module):
    def __init__(self, n_embd, n_head, dropout, rope, shared):
        super().__init__()
        self.n_embd = n_embd
        self.dropout = dropout
        self.rope = rope
        self.split = QKVSplit(n_embd, n_head, shared)
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.out = nn.Linear(n_embd, n_embd)
        self.norm1 = nn.LayerNorm(n_embd)
        self.norm2 = nn.LayerNorm(n_embd)
        hidden = 256 * ((int(8 * n_embd / 3) + 255) // 256)
        self.w1 = nn.Linear(n_embd, hidden, bias=False)
        self.w3 = nn.Linear(n_embd, hidden, bias=False)
        self.w2 = nn.Linear(hidden, n_embd, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.split(self.qkv(self.norm1(x)))
        q, k = self.rope(q, k, 0, 0)
        attn = F.scaled_dot_product_attention(
            q, k, v,
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=True,
        )
        attn = attn.permute(0, 2, 1, 3).contiguous().view(x.shape[0], -1, self.n_embd)
        x = x + self.out(attn)
        h = self.norm2(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class TinyLM(nn.Module):
    def __init__(self, vocab, n_embd, n_head, n_layer, dropout, rope, shared):
        super().__init__()
        self.shared = shared
        self.embed = nn.Embedding(vocab, n_embd)
        self.blocks = nn.ModuleList(DecoderBlock(n_embd, n_head, dropout, rope, shared) for _ in range(n_layer))
        self.head = nn.Linear(n_embd, vocab, bias=False)

    @torch.no_grad()
    def next_token_logits(self, ids):
        self.shared["cache_on"] = True
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, -1, :])
