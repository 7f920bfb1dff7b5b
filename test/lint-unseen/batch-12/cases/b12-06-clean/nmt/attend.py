# case: b12-06-clean
# modelled-on: VTongTV/bahdanau-attention-from-scratch https://github.com/VTongTV/bahdanau-attention-from-scratch/commit/d7dd97151e3ff11321a16362b3e9db483cbb61c9
# label: correct
# class: clean
# pattern: a from-scratch reproduction of Bahdanau et al.'s RNNsearch: the collate module builds source masks as arange(len) < lengths (True on real tokens), an additive scorer in another module returns (batch, src_len) energies v^T tanh(W s + U h) through an einsum, and the attention module fills masked_fill(~src_mask, -inf) before a softmax over the last axis and contracts the weights with the annotations by einsum "bt,btd->bd"
# why: correct: the mask is True on real source tokens, so ~src_mask selects padding, which gets -inf; every source sentence has at least one token, so no row is all -inf; additive (MLP) attention has no 1/sqrt(d) scale in the paper; the scores are 2-D (batch, src_len), so dim=-1 is the source axis; what a naive linter could misread: ATT002 (a negated mask), ATT003 (no scale), ATT007 (-inf fill), ATT001 (a softmax over the last axis of 2-D scores)
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/VTongTV/bahdanau-attention-from-scratch https://github.com/VTongTV/bahdanau-attention-from-scratch/commit/d7dd97151e3ff11321a16362b3e9db483cbb61c9 nmt/model/attention.py
import torch
import torch.nn as nn

from nmt.scorer import AdditiveScorer


class SourceAttention(nn.Module):
    """alpha_j over source steps, context = sum_j alpha_j h_j."""

    def __init__(self, hidden: int, attn_hidden: int):
        super().__init__()
        self.scorer = AdditiveScorer(hidden, attn_hidden)
        self._annotations = None

    def cache(self, annotations):
        self._annotations = annotations
        self.scorer.precompute(annotations)

    def forward(self, prev_state, src_mask=None):
        scores = self.scorer.score(prev_state)
        if src_mask is not None:
            scores = scores.masked_fill(~src_mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        context = torch.einsum("bt,btd->bd", weights, self._annotations)
        return context, weights
