# case: b52-06-clean
# modelled-on: PriorLabs/TabPFN https://github.com/PriorLabs/TabPFN/commit/930ea728b40f7f321d965250838bca8507bd70b9
# label: correct
# class: clean
# pattern: a folder: the two attentions of a tabular in-context learner on (batch, rows, features, E) cells: along a row, feature groups attend to each other; along a column, the training rows attend to the training rows and the test rows attend to the training rows only (keys and values are projected from the first n_train rows, so no mask is needed); test rows use only the first key/value head (multi-query); an optional cache holds that first head of the training keys and values so later calls send test rows only; every call goes through a helper (other file) that takes (B, S, H, D) tensors, permutes them to (B, H, S, D), repeats key/value heads when there are fewer than query heads, and calls scaled_dot_product_attention with attn_mask=None, no is_causal and the default scale
# why: correct: the model is not autoregressive; which rows a query may see is enforced by which rows the keys are built from (training rows only), so the absence of a mask and of is_causal is intended, and with a cache the queries are test rows that may see every cached training row; the default scale 1/sqrt(q.size(-1)) is 1/sqrt(head_dim), the width of these heads; the permute swaps the row and head axes of q, k and v alike (SDPA transposes the keys itself); repeat_interleave over the head axis gives each query head its key/value head
# looks-like: ATT002, ATT003, ATT005, ATT008
# source: https://github.com/PriorLabs/TabPFN https://github.com/PriorLabs/TabPFN/commit/930ea728b40f7f321d965250838bca8507bd70b9 src/tabpfn/architectures/tabpfn_v2.py
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
from torch import nn

from attention_ops import sdpa_bshd


@dataclass
class TrainKV:
    key: torch.Tensor  # (batch * columns, n_train, 1, head_dim)
    value: torch.Tensor


class _Projected(nn.Module):
    def __init__(self, emb: int, heads: int, head_dim: int):
        super().__init__()
        self.heads = heads
        self.head_dim = head_dim
        self.wq = nn.Linear(emb, heads * head_dim, bias=False)
        self.wk = nn.Linear(emb, heads * head_dim, bias=False)
        self.wv = nn.Linear(emb, heads * head_dim, bias=False)
        self.wo = nn.Linear(heads * head_dim, emb, bias=False)
        for lin in (self.wq, self.wk, self.wv):
            nn.init.xavier_uniform_(lin.weight)
        nn.init.zeros_(self.wo.weight)

    def split(self, t: torch.Tensor) -> torch.Tensor:
        return t.view(t.shape[0], t.shape[1], -1, self.head_dim)


class FeatureAttention(_Projected):
    """Feature groups of one row attend to each other: x is (batch * rows, groups, emb)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, g, _ = x.shape
        out = sdpa_bshd(self.split(self.wq(x)), self.split(self.wk(x)), self.split(self.wv(x)))
        return self.wo(out.reshape(n, g, self.heads * self.head_dim))


class RowAttention(_Projected):
    """Cells of one column: training rows see training rows, test rows see training rows only."""

    def forward(
        self,
        x: torch.Tensor,
        n_train: Optional[int] = None,
        cache: Optional[TrainKV] = None,
        keep_cache: bool = False,
    ) -> Tuple[torch.Tensor, Optional[TrainKV]]:
        b, rows, _ = x.shape
        q = self.split(self.wq(x))
        saved = None
        if cache is not None:
            # every row here is a test row; it may look at all cached training rows
            out = sdpa_bshd(q, cache.key.to(q.dtype), cache.value.to(q.dtype))
        else:
            n = rows if n_train is None else n_train
            k = self.split(self.wk(x[:, :n]))
            v = self.split(self.wv(x[:, :n]))
            if n == rows:
                out = sdpa_bshd(q, k, v)
            else:
                train_out = sdpa_bshd(q[:, :n], k, v)
                test_out = sdpa_bshd(q[:, n:], k[:, :, :1], v[:, :, :1])
                out = torch.cat([train_out, test_out], dim=1)
            if keep_cache:
                saved = TrainKV(k[:, :, :1].contiguous().detach(), v[:, :, :1].contiguous().detach())
        return self.wo(out.reshape(b, rows, self.heads * self.head_dim)), saved
