# case: b28-08-clean
# modelled-on: parth4594/Trajectory-Prediction https://github.com/parth4594/Trajectory-Prediction/commit/7461bda90687fe006caa186efecbf02ccd600d6b
# label: correct
# class: clean
# pattern: a master's project predicting road-user trajectories with a transformer split over many small modules: functional.no_peek_mask (numpy.triu(ones, k=1) == 0, True on and below the diagonal) and scaled_attention (scores / sqrt(d_k), masked_fill_(mask == 0, -1e9), softmax over dim=-1); batch.TrackBatch builds the source mask (src != pad) and the target mask (not padding AND subsequent_mask); the multi-head layer unsqueezes the mask for the heads and calls scaled_attention on (B, h, T, d_k) projections
# why: correct: every mask here is True on the positions to keep, and attention fills where mask == 0, so padding and future positions are the ones removed; == 0 on the triu(k=1) matrix turns the strictly-upper triangle into False; d_k is the per-head width d_model // h; the softmax is over the key axis; -1e9 is a float32 fill and nothing runs in half precision
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/parth4594/Trajectory-Prediction https://github.com/parth4594/Trajectory-Prediction/commit/7461bda90687fe006caa186efecbf02ccd600d6b Trajectory Transformer/transformer/multihead_attention.py
import torch.nn as nn

from .functional import replicate, scaled_attention


class HeadsAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_k = d_model // h
        self.h = h
        self.proj = replicate(nn.Linear(d_model, d_model), 4)
        self.attn = None
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # same mask for all heads
        nb = query.size(0)
        query, key, value = [
            lin(x).view(nb, -1, self.h, self.d_k).transpose(1, 2)
            for lin, x in zip(self.proj, (query, key, value))
        ]
        x, self.attn = scaled_attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(nb, -1, self.h * self.d_k)
        return self.proj[-1](x)
