# case: b22-10-clean
# modelled-on: aleks-apostle/Hierarchical-Memory-Transformer-PyTorch https://github.com/aleks-apostle/Hierarchical-Memory-Transformer-PyTorch/commit/af0f2255696592c88c8dddf36bdf3ef907f88bec
# label: correct
# class: clean
# pattern: a hierarchical-memory transformer's two attention modules: the representation encoder runs a batch-first nn.MultiheadAttention over the first j tokens of a segment with key_padding_mask = ~first_j_mask.bool() (the segment's 1 = valid mask) and pools with the keep mask; the memory search scores one projected query against a cache of earlier segment memories with torch.bmm(q.unsqueeze(1), k.transpose(1, 2)) * (1 / sqrt(hidden_dim)), softmaxes the (batch, 1, cache) scores over the last axis and takes the weighted sum of the raw cache (no value projection, as the paper specifies); an empty cache returns zeros
# why: correct: key_padding_mask is True where a key is ignored, so the inverted valid mask hides exactly the padding; the memory search is a single-head attention over the whole width, so 1/sqrt(hidden_dim) is the per-head scale, transpose(1, 2) puts the cache on the last axis of the scores, which the softmax normalises; the cache holds only past segments, so no causal mask is needed
# looks-like: ATT002, ATT003, ATT004, ATT005, ATT008
# source: https://github.com/aleks-apostle/Hierarchical-Memory-Transformer-PyTorch https://github.com/aleks-apostle/Hierarchical-Memory-Transformer-PyTorch/commit/af0f2255696592c88c8dddf36bdf3ef907f88bec src/hmt/memory.py
import math
from typing import Optional

import torch
import torch.nn as nn


class SegmentSummary(nn.Module):
    """Compresses the first j tokens of a segment into one summary vector."""

    def __init__(self, hidden_dim: int, representation_length: int):
        super().__init__()
        self.j = representation_length
        self.self_attention = nn.MultiheadAttention(embed_dim=hidden_dim, num_heads=8, dropout=0.1, batch_first=True)
        self.norm1 = nn.LayerNorm(hidden_dim)
        self.norm2 = nn.LayerNorm(hidden_dim)
        self.ffn = nn.Sequential(nn.Linear(hidden_dim, 4 * hidden_dim), nn.GELU(), nn.Linear(4 * hidden_dim, hidden_dim))
        self.out = nn.Linear(hidden_dim, hidden_dim)

    def forward(self, hidden_states: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """attention_mask: (batch, seq_len), 1 = valid, 0 = padding."""
        batch_size, seq_len, _ = hidden_states.shape
        j = min(self.j, seq_len)
        tokens = hidden_states[:, :j, :]
        if attention_mask is not None:
            first_j_mask = attention_mask[:, :j]
            # nn.MultiheadAttention: True = ignore
            key_padding_mask = ~first_j_mask.bool()
        else:
            key_padding_mask = None
            first_j_mask = torch.ones(batch_size, j, dtype=torch.bool, device=hidden_states.device)

        attn_out, _ = self.self_attention(tokens, tokens, tokens, key_padding_mask=key_padding_mask, need_weights=False)
        tokens = self.norm1(tokens + attn_out)
        tokens = self.norm2(tokens + self.ffn(tokens))

        w = first_j_mask.unsqueeze(-1).float()
        summary = (tokens * w).sum(dim=1) / w.sum(dim=1).clamp(min=1e-9)
        return self.out(summary)


class MemorySearch(nn.Module):
    """Cross-attention from the current summary to the cached memories of earlier segments."""

    def __init__(self, hidden_dim: int):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.query_projection = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.key_projection = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.scale = 1.0 / math.sqrt(hidden_dim)
        self.dropout = nn.Dropout(0.1)

    def forward(self, query: torch.Tensor, memory_cache: Optional[torch.Tensor] = None) -> torch.Tensor:
        """query: (batch, hidden); memory_cache: (batch, cache_size, hidden) or None."""
        batch_size = query.shape[0]
        if memory_cache is None or memory_cache.size(1) == 0:
            return torch.zeros(batch_size, self.hidden_dim, dtype=query.dtype, device=query.device)

        q = self.query_projection(query).unsqueeze(1)  # (batch, 1, hidden)
        k = self.key_projection(memory_cache)  # (batch, cache, hidden)
        scores = torch.bmm(q, k.transpose(1, 2))  # (batch, 1, cache)
        scores = scores * self.scale
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, memory_cache).squeeze(1)
