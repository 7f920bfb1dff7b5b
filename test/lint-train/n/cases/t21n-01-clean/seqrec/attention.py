# case: t21n-01-clean
# modelled-on: yiting-tom/Bert4Rec https://github.com/yiting-tom/Bert4Rec/commit/1a2366299887655eb2aa419481ac39d6c8753314
# label: correct
# class: clean
# pattern: a BERT4Rec port (sequential recommendation) whose multi-head attention takes a config object (per-head key width, heads, model width); the head width is recomputed in forward as dm // n_head from the projected queries; keys are split with view and turned with two transposes, transpose(1, 2).transpose(2, 3), into (B, nh, dh, S) so the scores are a plain q @ k divided by torch.sqrt(torch.tensor(dh)); an additive attention bias from the caller (per head, (B, nh, S, S)) is added in place before the softmax over the last axis; the encoder layer in another module passes the bias down
# why: correct: the two transposes take the keys from (B, S, nh, dh) to (B, nh, dh, S), so q @ k is (B, nh, S, S) with the keys on the last axis, the axis the softmax normalises; dh is the per-head width (dm is d_key * n_head); the bias is additive (0 for kept positions, a large negative number for masked ones) and is added before the softmax
# looks-like: ATT004, ATT005, ATT006
# source: https://github.com/yiting-tom/Bert4Rec https://github.com/yiting-tom/Bert4Rec/commit/1a2366299887655eb2aa419481ac39d6c8753314 bert4rec/encoder/encoder_layer/_attention.py
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class AttentionConf:
    n_head: int = 8
    d_key: int = 64
    d_val: int = 64
    d_model: int = 512
    dropout_rate: float = 0.1


class HeadedSelfAttention(nn.Module):
    """B: batch, S: sequence, dm: model width, dh: head width, nh: heads (dm = dh * nh)."""

    def __init__(self, conf: AttentionConf):
        super().__init__()
        self.conf = conf
        self.w_q = nn.Linear(conf.d_model, conf.d_key * conf.n_head)
        self.w_k = nn.Linear(conf.d_model, conf.d_key * conf.n_head)
        self.w_v = nn.Linear(conf.d_model, conf.d_val * conf.n_head)
        self.w_o = nn.Linear(conf.d_key * conf.n_head, conf.d_model)
        self.drop = nn.Dropout(conf.dropout_rate)

    def forward(self, x, bias):
        q = self.w_q(x)
        k = self.w_k(x)
        v = self.w_v(x)

        # q: [B, S, dm]
        B, S, dm = q.size()
        dh = dm // self.conf.n_head
        shape = [B, -1, self.conf.n_head, dh]

        # [B, S, nh, dh] -> [B, nh, S, dh]
        q = q.view(shape).transpose(1, 2)
        # [B, S, nh, dh] -> [B, nh, dh, S]
        k = k.view(shape).transpose(1, 2).transpose(2, 3)
        v = v.view(shape).transpose(1, 2)

        # bias: [B, nh, S, S]
        score = (q @ k) / torch.sqrt(torch.tensor(dh, dtype=q.dtype))
        if bias is not None:
            score += bias

        weights = torch.softmax(score, dim=-1)
        if self.conf.dropout_rate:
            weights = self.drop(weights)

        out = (weights @ v).transpose(1, 2).reshape(B, S, dm)
        return self.w_o(out)
