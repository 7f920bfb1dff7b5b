# case: t17j-06-clean
# modelled-on: mochan-b/multi-head-attention-from-scratch https://github.com/mochan-b/multi-head-attention-from-scratch/commit/8cb614820407d98087d2eb1837fdfb6aba051011
# label: correct
# class: clean
# pattern: a from-scratch re-implementation of nn.MultiheadAttention checked against PyTorch: a shared helper scales q by 1/sqrt of its last axis, multiplies with k.transpose(-2, -1) by bmm and softmaxes over the last axis; the single-head module transposes the batch-first input to (seq, batch, emb), projects it with one packed in_proj weight, unflattens q, k, v and transposes them back to batch-major before the helper; the multi-head module in another file reuses the projection, views q, k, v as (seq, batch * heads, head_dim) from the sequence-first layout and transposes to (batch * heads, seq, head_dim), then averages the returned weights over heads
# why: correct: the helper's E is q.shape[-1], which is head_dim after the multi-head split (and embed_dim for the single head), so the scale is per head; scaling q alone before the product is the same as scaling the scores; the (seq, batch * heads, head_dim) view is taken from the sequence-first tensor, the layout nn.MultiheadAttention uses internally, so batch and heads are not mixed; the softmax runs over the keys
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/mochan-b/multi-head-attention-from-scratch https://github.com/mochan-b/multi-head-attention-from-scratch/commit/8cb614820407d98087d2eb1837fdfb6aba051011 self_attention_from_scratch.py, multi_head_self_attention_from_scratch.py
import math

import torch
import torch.nn as nn


def attention_weights(q, k):
    batch, n_t, width = q.shape
    q_scaled = q / math.sqrt(width)
    scores = torch.bmm(q_scaled, k.transpose(-2, -1))
    return nn.functional.softmax(scores, dim=-1)


class SingleHeadFromScratch(nn.Module):
    def __init__(self, embed_dim):
        super().__init__()
        self.embed_dim = embed_dim
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=True)
        self.in_proj_weight = nn.Parameter(torch.empty((3 * embed_dim, embed_dim)))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        nn.init.constant_(self.out_proj.bias, 0.0)

    def project(self, x):
        seq_first = x.transpose(0, 1)  # (seq, batch, emb)
        emb = seq_first.shape[-1]
        proj = nn.functional.linear(seq_first, self.in_proj_weight, bias=self.in_proj_bias)
        proj = proj.unflatten(-1, (3, emb)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]  # each (seq, batch, emb)

    def forward(self, x):
        q, k, v = self.project(x)
        q, k, v = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)  # batch first again
        weights = attention_weights(q, k)
        out = torch.bmm(weights, v)
        return nn.functional.linear(out, self.out_proj.weight, self.out_proj.bias), weights
