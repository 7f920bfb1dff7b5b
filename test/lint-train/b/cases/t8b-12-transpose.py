# case: t8b-12-transpose
# modelled-on: yomi1117/study_repo https://github.com/yomi1117/study_repo/commit/61470e364332e7bdbd99e59e497094f8b7cda7c6
# label: buggy
# class: real-bug
# pattern: study notes: a single-head self-attention module with three Linear(d_model, d_model) projections over batched input (b, l, d), scores divided by sqrt(d_model) and softmaxed over the last axis; the notes end with a shape experiment on a (3, 100, 768) tensor comparing k.T with k.transpose(-1, -2)
# why: buggy: k is 3-D (b, l, d), and .T on a 3-D tensor reverses all three axes to (d, l, b), so q @ k.T does not contract the features of each query with each key of the same example (it fails or, when the sizes happen to agree, mixes batch entries); the next commit (a168378) replaces it with k.transpose(-1, -2) and annotates the scores as [b, l, l]; the first version returned 0 while being written, given here the return of the fixed version
# source: https://github.com/yomi1117/study_repo https://github.com/yomi1117/study_repo/commit/a168378be4ac006a6085cc9ad0f16c00b920e6d3 llm/attention.py
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.d_model = d_model
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)

    def forward(self, x):
        q = self.w_q(x)
        k = self.w_k(x)
        v = self.w_v(x)

        attn_scores = q @ k.T / (self.d_model**0.5)  # expect: ATT005
        attn_scores = torch.softmax(attn_scores, dim=-1)
        return attn_scores @ v


k = torch.randn(3, 100, 768)
print(k.shape)
print(k.T.shape)
print(k.transpose(-1, -2).shape)
