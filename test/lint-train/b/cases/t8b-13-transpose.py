# case: t8b-13-transpose
# modelled-on: yomi1117/study_repo https://github.com/yomi1117/study_repo/commit/a168378be4ac006a6085cc9ad0f16c00b920e6d3
# label: correct
# class: fixed
# pattern: the same study-notes self-attention after the fix: single head, three Linear(d_model, d_model) projections over batched (b, l, d) input, the keys' last two axes swapped with transpose(-1, -2), scores divided by sqrt(d_model) and softmaxed over the last axis
# why: correct: k.transpose(-1, -2) is (b, d, l), so the scores are (b, l, l) per example; with a single head the model width d_model is the key width, so 1/sqrt(d_model) is the paper's 1/sqrt(d_k); the softmax runs over the keys
# looks-like: ATT004, ATT005
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
        q = self.w_q(x)  # [b, l, d]
        k = self.w_k(x)
        v = self.w_v(x)

        attn_scores = q @ k.transpose(-1, -2) / (self.d_model**0.5)  # [b, l, l]
        attn_scores = torch.softmax(attn_scores, dim=-1)  # [b, l, l]
        return attn_scores @ v


if __name__ == "__main__":
    x = torch.randn(3, 100, 768)
    print(SelfAttention(768)(x).shape)
