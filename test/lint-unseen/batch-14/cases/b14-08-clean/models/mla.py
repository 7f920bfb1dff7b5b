# case: b14-08-clean
# modelled-on: neelbanodiya/Multi-head-Latent-Attention-from-scratch https://github.com/neelbanodiya/Multi-head-Latent-Attention-from-scratch/commit/3f6722423d78f33fed97790fe7f75df87920b0c5
# label: correct
# class: clean
# pattern: a character-level LM built to study DeepSeek-style multi-head latent attention: queries are projected and split into (batch, heads, seq, d_head), keys and values are rebuilt per head from one cached low-rank latent (a list of per-head Linear(d_latent, d_head) stacked on dim=1), the latent cache is concatenated along the time axis, the scores are Q @ K.transpose(-2, -1) / sqrt(d_head) and a 1 = attend mask is applied with masked_fill(mask == 0, -inf); the language model (another module) passes a tril causal mask for a full sequence or a prompt prefill, and an all-ones (1, 1, 1, past + 1) mask when it feeds one new token against the cache
# why: correct: torch.stack(..., dim=1) puts the heads second, so the keys are (batch, heads, kv_seq, d_head) and transpose(-2, -1) is the key transpose; d_head is each head's key width (the latent width d_latent is only the cache's); the masks are keep masks (1 = may attend) and mask == 0 selects the blocked positions; with the cache the single new token is the newest position and may see every cached one, which the all-ones mask says, while the prefill (cache None) uses the causal tril; what a naive linter could misread: ATT008 / ATT002 (a cache with an all-ones mask, mask == 0), ATT004 (sqrt(d_head) next to a latent width), ATT005 (keys stacked from a list), ATT007 (-inf)
# looks-like: ATT002, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/neelbanodiya/Multi-head-Latent-Attention-from-scratch https://github.com/neelbanodiya/Multi-head-Latent-Attention-from-scratch/commit/3f6722423d78f33fed97790fe7f75df87920b0c5 models/mla.py
import math

import torch
import torch.nn as nn


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, d_latent: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.W_q = nn.Linear(d_model, num_heads * self.d_head, bias=False)
        self.W_down_kv = nn.Linear(d_model, d_latent, bias=False)  # the only thing cached
        self.W_up_k = nn.ModuleList([nn.Linear(d_latent, self.d_head, bias=False) for _ in range(num_heads)])
        self.W_up_v = nn.ModuleList([nn.Linear(d_latent, self.d_head, bias=False) for _ in range(num_heads)])
        self.W_o = nn.Linear(num_heads * self.d_head, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None, use_cache=False, cache=None):
        batch_size, seq_len, _ = x.shape
        Q = self.W_q(x).view(batch_size, seq_len, self.num_heads, self.d_head).transpose(1, 2)
        C_kv = self.W_down_kv(x)  # (batch, seq, d_latent)
        if use_cache and cache is not None and "c_kv" in cache:
            C_kv = torch.cat([cache["c_kv"], C_kv], dim=1)
        K = torch.stack([up(C_kv) for up in self.W_up_k], dim=1)  # (batch, heads, kv_seq, d_head)
        V = torch.stack([up(C_kv) for up in self.W_up_v], dim=1)
        scores = torch.matmul(Q, K.transpose(-2, -1))
        scores = scores / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(weights, V).transpose(1, 2).contiguous().view(batch_size, seq_len, self.num_heads * self.d_head)
        new_cache = {"c_kv": C_kv} if use_cache else None
        return self.W_o(out), new_cache


def create_causal_mask(seq_len: int, device=None) -> torch.Tensor:
    """(1, 1, seq, seq), 1 = may attend, 0 = future."""
    return torch.tril(torch.ones(seq_len, seq_len, device=device)).unsqueeze(0).unsqueeze(0)
