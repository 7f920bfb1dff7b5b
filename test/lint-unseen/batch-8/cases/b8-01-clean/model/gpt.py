# case: b8-01-clean
# modelled-on: gimttos/minillm https://github.com/gimttos/minillm/commit/85081b98db6d78405c684dcf0bf11ddb52176487
# label: correct
# class: clean
# pattern: a small Llama-style GPT whose attention appends to a per-layer KV cache and calls SDPA with is_causal only when the query and key lengths are equal and no mask is given; a training script in another module runs a prefix into the cache, then one latent step at a time, then a whole suffix, passing rectangular boolean masks it builds from absolute positions (True = may attend)
# why: correct: is_causal=True is used only when T_q == T_k (no cache yet, top-left equals bottom-right); a one-token step after the cache attends to every cached key, which is causal; the suffix mask lets global position P+k+i see keys j <= P+k+i and blocks left padding, in SDPA's boolean convention (True = attend), and the diagonal is kept so no padded row is empty
# looks-like: ATT002, ATT008
# source: https://github.com/gimttos/minillm https://github.com/gimttos/minillm/commit/85081b98db6d78405c684dcf0bf11ddb52176487 model/gpt.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate(x: torch.Tensor, freqs: torch.Tensor) -> torch.Tensor:
    """x: (B, H, T, hd); freqs: (T, hd/2) complex."""
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(xc * freqs).reshape(*x.shape).type_as(x)


class SelfAttention(nn.Module):
    """Causal multi-head attention; during generation the past keys/values come from the cache."""

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.dropout = dropout

    def forward(self, x, freqs, cache=None, attn_mask=None, probe=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        q, k = rotate(q, freqs), rotate(k, freqs)

        if cache is not None:
            if cache[0] is not None:
                k = torch.cat([cache[0], k], dim=2)
                v = torch.cat([cache[1], v], dim=2)
            cache[0], cache[1] = k, v

        if probe:
            # no-grad pass over a whole sequence (never with a cache) to read the attention entropy
            scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
            keep = torch.tril(torch.ones(q.size(2), k.size(2), dtype=torch.bool, device=q.device))
            scores = scores.masked_fill(~keep, float("-inf"))
            weights = scores.softmax(dim=-1)
            self.entropy = -(weights * (weights + 1e-9).log()).sum(-1).mean(1)
            y = weights @ v
        else:
            # is_causal only when T_q == T_k (training, or a prefill without cache). A single new
            # token may see the whole cache; a prefix/suffix split passes its own rectangular mask.
            y = F.scaled_dot_product_attention(
                q, k, v,
                attn_mask=attn_mask,
                is_causal=(attn_mask is None and q.size(2) == k.size(2)),
                dropout_p=self.dropout if self.training else 0.0,
            )
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, d_model: int = 256, n_heads: int = 8, n_layers: int = 4, max_len: int = 1024):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([SelfAttention(d_model, n_heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        hd = d_model // n_heads
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        ang = torch.outer(torch.arange(max_len).float(), inv)
        self.register_buffer("freqs", torch.polar(torch.ones_like(ang), ang), persistent=False)

    def new_caches(self):
        return [[None, None] for _ in self.layers]

    def run_from(self, h, start: int, caches, attn_mask=None):
        """Continue from absolute position `start`, appending to the caches."""
        freqs = self.freqs[start : start + h.size(1)]
        for layer, cache in zip(self.layers, caches):
            h = h + layer(h, freqs, cache, attn_mask)
        return self.norm(h)
