# case: b9-06-scale
# modelled-on: nullrish/building-llm-from-scratch-repo https://github.com/nullrish/building-llm-from-scratch-repo/commit/f482e87bb70a695e2dfe38f5a8f6d0ef6aab282d
# label: buggy
# class: real-bug
# pattern: a reader's work-through of an LLM-from-scratch book chapter: a first self-attention class with nn.Parameter projections and scores softmaxed with keys.shape[-1] ** 0.5, then a second class with nn.Linear projections that scales the same scores, masks the weights with a tril matrix after the softmax and renormalises the rows (the book's "simple mask" step)
# why: buggy: the second class divides the scores by keys.shape[-1] ** 0.05 (the 20th root of the key width) instead of ** 0.5, a typo against the first class in the same file and the book's 1/sqrt(d_k); the masking after the softmax is the book's deliberate demonstration and renormalises each row, so it is not a defect here; no fix was found
# source: https://github.com/nullrish/building-llm-from-scratch-repo https://github.com/nullrish/building-llm-from-scratch-repo/commit/f482e87bb70a695e2dfe38f5a8f6d0ef6aab282d attention/compact_self_attention.py
import torch
import torch.nn as nn


class SelfAttentionV1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        # x: (num_tokens, d_in)
        keys = x @ self.W_key
        queries = x @ self.W_query
        values = x @ self.W_value
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=1)
        return attn_weights @ values


class SelfAttentionV2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.05, dim=1)  # expect: ATT004

        context_length = attn_scores.shape[0]
        simple_mask = torch.tril(torch.ones(context_length, context_length))
        masked = attn_weights * simple_mask
        masked = masked / masked.sum(dim=1, keepdim=True)
        return masked @ values


if __name__ == "__main__":
    torch.manual_seed(789)
    inputs = torch.rand(6, 3)
    print(SelfAttentionV1(3, 2)(inputs))
    print(SelfAttentionV2(3, 2)(inputs))
