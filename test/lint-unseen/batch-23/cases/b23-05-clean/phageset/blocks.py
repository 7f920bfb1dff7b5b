# case: b23-05-clean
# modelled-on: Noonanav/phage-set-transformer https://github.com/Noonanav/phage-set-transformer/commit/7802c6e70aee2333a9193c2bfe3f78839534713d
# label: correct
# class: clean
# pattern: a Set Transformer for phage-host prediction: the collate function in another module zero-pads two gene sets per sample and builds boolean masks True on real rows; the attention block reshapes to (B, h, n, d_h), divides the logits by np.sqrt(dim_split) * temperature (a configurable temperature, 0.1 by default), expands the key mask to (B, 1, 1, n_k) and fills the padded keys with -inf through masked_fill(~mask, ...), with a chunked path over the queries that repeats the same steps; the pooling and cross-set blocks pass the key set's mask
# why: correct: the mask is a keep mask (True = real), so ~mask selects exactly the padded keys for -inf, and it is always the mask of the set that supplies the keys; the divisor is sqrt of the per-head width times a deliberate temperature, applied before the softmax; the softmax is over the key axis; no query row is fully masked since every set has at least one real row (the -inf fill cannot produce a NaN row)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/Noonanav/phage-set-transformer https://github.com/Noonanav/phage-set-transformer/commit/7802c6e70aee2333a9193c2bfe3f78839534713d phage_set_transformer/models.py
from typing import Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MAB(nn.Module):
    def __init__(self, dim_q: int, dim_k: int, dim_v: int, n_heads: int, ln: bool = False, temperature: float = 0.1):
        super().__init__()
        self.dim_v = dim_v
        self.n_heads = n_heads
        self.temperature = temperature
        self.fc_q = nn.Linear(dim_q, dim_v)
        self.fc_k = nn.Linear(dim_k, dim_v)
        self.fc_v = nn.Linear(dim_k, dim_v)
        self.fc_o = nn.Linear(dim_v, dim_v)
        self.ln = nn.LayerNorm(dim_v) if ln else nn.Identity()

    def forward(self, q, k, mask: Optional[torch.Tensor] = None, chunk_size: Optional[int] = None):
        # mask: (B, n_k), True on real keys
        qh, kh, vh = self.fc_q(q), self.fc_k(k), self.fc_v(k)
        b, n_q, _ = qh.shape
        n_k = kh.shape[1]
        d_h = self.dim_v // self.n_heads
        qh = qh.view(b, n_q, self.n_heads, d_h).transpose(1, 2)
        kh = kh.view(b, n_k, self.n_heads, d_h).transpose(1, 2)
        vh = vh.view(b, n_k, self.n_heads, d_h).transpose(1, 2)

        if chunk_size is not None and n_q > chunk_size:
            parts = []
            for i in range(0, n_q, chunk_size):
                a = torch.matmul(qh[:, :, i : i + chunk_size], kh.transpose(-2, -1)) / (np.sqrt(d_h) * self.temperature)
                if mask is not None:
                    a = a.masked_fill(~mask.unsqueeze(1).unsqueeze(2), float("-inf"))
                a = torch.softmax(a, dim=-1)
                parts.append(torch.matmul(a, vh))
            o = torch.cat(parts, dim=2)
        else:
            a = torch.matmul(qh, kh.transpose(-2, -1)) / (np.sqrt(d_h) * self.temperature)
            if mask is not None:
                keep = mask.unsqueeze(1).unsqueeze(2)  # (B, 1, 1, n_k)
                a = a.masked_fill(~keep, float("-inf"))
            a = torch.softmax(a, dim=-1)
            o = torch.matmul(a, vh)

        o = o.transpose(1, 2).contiguous().view(b, -1, self.dim_v)
        return self.ln(o + F.relu(self.fc_o(o)))


class PMA(nn.Module):
    def __init__(self, dim: int, n_heads: int, n_seeds: int = 1, temperature: float = 0.1):
        super().__init__()
        self.seeds = nn.Parameter(torch.empty(1, n_seeds, dim))
        nn.init.xavier_uniform_(self.seeds)
        self.mab = MAB(dim, dim, dim, n_heads, temperature=temperature)

    def forward(self, x, mask=None):
        return self.mab(self.seeds.repeat(x.size(0), 1, 1), x, mask=mask)


class HostPhageModel(nn.Module):
    def __init__(self, dim: int, n_heads: int = 4, temperature: float = 0.1):
        super().__init__()
        self.host_to_phage = MAB(dim, dim, dim, n_heads, temperature=temperature)
        self.pool = PMA(dim, n_heads, temperature=temperature)
        self.head = nn.Linear(dim, 1)

    def forward(self, host_x, phage_x, host_mask, phage_mask):
        h = self.host_to_phage(host_x, phage_x, mask=phage_mask, chunk_size=256)
        pooled = self.pool(h, mask=host_mask)
        return self.head(pooled.squeeze(1))
