# case: b56-04-clean
# modelled-on: sktime/pytorch-forecasting https://github.com/sktime/pytorch-forecasting/commit/062aeb47b75d589dcce621c04572181e3584a301
# label: correct
# class: clean
# pattern: the interpretable multi-head attention of a temporal fusion transformer, a folder: a batched (bmm) scaled dot-product attention whose softmax is an nn.Softmax(dim=2) built in __init__ and whose mask is filled with a configurable bias (default -1e9), per-head query and key projections sharing one value projection, heads averaged; the model file builds the mask from encoder and decoder lengths with a helper module and passes only the prediction-window positions as queries
# why: correct: the scores are bmm(q, k.permute(0, 2, 1)) of shape (batch, queries, keys), so dim=2 is the key axis; they are divided by sqrt(k.size(-1)), the per-head key width (d_model // n_head); the mask is True where a key must be hidden (masked_fill(mask, bias)): padded encoder steps (the helper returns True past each series' length) and, with causal attention, decoder steps at or after the predicted one (attend_step >= predict_step, which also keeps a forecast step from attending to itself, by design), and every row keeps the encoder steps of its series; -1e9 masks in float32 and the bias is a parameter for half precision; the queries are the decoder positions and the mask is built for exactly those rows over encoder + decoder keys, encoder first
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/sktime/pytorch-forecasting https://github.com/sktime/pytorch-forecasting/commit/062aeb47b75d589dcce621c04572181e3584a301 pytorch_forecasting/models/temporal_fusion_transformer/sub_modules.py
from typing import Optional, Tuple

import torch
import torch.nn as nn


class DotAttention(nn.Module):
    def __init__(self, p_drop: Optional[float] = None, scaled: bool = True, fill: float = -1e9):
        super().__init__()
        self.drop = nn.Dropout(p_drop) if p_drop is not None else None
        self.normalise = nn.Softmax(dim=2)
        self.scaled = scaled
        self.fill = fill

    def forward(self, q, k, v, hide=None):
        logits = torch.bmm(q, k.permute(0, 2, 1))
        if self.scaled:
            logits = logits / torch.as_tensor(k.size(-1), dtype=logits.dtype, device=logits.device).sqrt()
        if hide is not None:
            logits = logits.masked_fill(hide, self.fill)
        probs = self.normalise(logits)
        if self.drop is not None:
            probs = self.drop(probs)
        return torch.bmm(probs, v), probs


class SharedValueAttention(nn.Module):
    """Heads with their own query/key maps and one shared value map; outputs are averaged."""

    def __init__(self, heads: int, width: int, p_drop: float = 0.0, fill: float = -1e9):
        super().__init__()
        self.heads = heads
        per_head = width // heads
        self.values = nn.Linear(width, per_head)
        self.queries = nn.ModuleList([nn.Linear(width, per_head) for _ in range(heads)])
        self.keys = nn.ModuleList([nn.Linear(width, per_head) for _ in range(heads)])
        self.core = DotAttention(fill=fill)
        self.out = nn.Linear(per_head, width, bias=False)
        self.drop = nn.Dropout(p_drop)

    def forward(self, q, k, v, hide=None) -> Tuple[torch.Tensor, torch.Tensor]:
        shared = self.values(v)
        outs, maps = [], []
        for wq, wk in zip(self.queries, self.keys):
            o, a = self.core(wq(q), wk(k), shared, hide)
            outs.append(self.drop(o))
            maps.append(a)
        stacked = torch.stack(outs, dim=2)
        mixed = stacked.mean(dim=2) if self.heads > 1 else outs[0]
        return self.drop(self.out(mixed)), torch.stack(maps, dim=2)
