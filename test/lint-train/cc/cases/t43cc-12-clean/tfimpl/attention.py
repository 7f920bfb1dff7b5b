# case: t43cc-12-clean
# modelled-on: GlaIZier/transformer-implementation https://github.com/GlaIZier/transformer-implementation/commit/80598a9b56508c0647e8598f0e4b102eeee5fa38
# label: correct
# class: clean
# pattern: a from-scratch translation Transformer (encoder side): the collate function pads the batch and builds each padding mask as `ones_like(ids).masked_fill(ids == pad, 0)` (mask module); the encoder passes it to every layer; the attention keeps heads after tokens, `einsum("bthd, bshd -> bhts", q, k)` divided by sqrt(d_head), reshapes a (B, T) mask to (B, 1, 1, T) when its rank differs from the scores', fills `mask == 0` with -inf, softmaxes over the last axis and multiplies by `v.permute(0, 2, 1, 3)`
# why: correct: the mask is ones with zeros written at the padding ids, a keep mask, so `mask == 0` is the padding, and the (B, 1, 1, S) view hides padded keys from every query; the einsum contracts the head dimension of (B, T, H, d) queries and (B, S, H, d) keys into (B, H, T, S) scores, so no transpose of the keys is needed, and the values are brought to (B, H, S, d) before the product; the -inf fill leaves a NaN row only for an all-padding sentence, which padding to the longest sentence of the batch never makes
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/GlaIZier/transformer-implementation https://github.com/GlaIZier/transformer-implementation/commit/80598a9b56508c0647e8598f0e4b102eeee5fa38 transformer/attention.py
import torch
import torch.nn.functional as F
from torch import nn

from .mask import to_key_mask


def self_attention(q, k, v, mask=None):
    # q: b t h dh, k/v: b s h dh
    prod = torch.einsum("bthd, bshd -> bhts", q, k)
    scaled = prod / torch.sqrt(torch.tensor(q.shape[-1]))
    # the mask must broadcast to b h t s and hide keys only (last axis), e.g. b t -> b 1 1 t
    if mask is not None:
        mask = mask if scaled.dim() == mask.dim() else to_key_mask(mask)
        scaled = scaled.masked_fill(mask == 0, float("-inf"))
    probs = F.softmax(scaled, dim=-1)
    # swap h and s in v
    return probs @ v.permute(0, 2, 1, 3)


class MHSA(nn.Module):
    def __init__(self, d: int = 512, h: int = 8):
        super().__init__()
        assert d % h == 0
        self.d, self.h, self.dh = d, h, d // h
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.wo = nn.Linear(d, d)

    def forward(self, q, k, v, mask=None):
        bq, tq, dq = q.size()
        bk, tk, _ = k.size()
        wq = self.wq(q).view(bq, tq, self.h, self.dh)
        wk = self.wk(k).view(bk, tk, self.h, self.dh)
        wv = self.wv(v).view(bk, tk, self.h, self.dh)
        attn = self_attention(wq, wk, wv, mask=mask)
        attn = attn.view(bq, self.h, tq, self.dh).transpose(1, 2).contiguous().view(bq, tq, dq)
        return self.wo(attn)
