# case: b17-04-transpose
# modelled-on: DevAnnafi/Attention_From_Scratch https://github.com/DevAnnafi/Attention_From_Scratch/commit/5f88cdd75ec46e8c89b5ab2c64f7e01645c9686e
# label: correct
# class: fixed
# pattern: the same from-scratch functional attention after the fix: q @ torch.transpose(k, -2, -1), divided by sqrt of q's last axis, softmax over the last axis, then @ v; split_heads / merge_heads reshape (B, S, d_model) to (B, H, S, d_k) and back, and a MultiHeadAttention module in another file calls the function on the 4-D head tensors; the function still serves 2-D (seq, d) inputs in a self-test
# why: correct: transpose(k, -2, -1) swaps the key's sequence and feature axes on 2-D and 4-D inputs alike, so the scores are (B, H, S_q, S_k) per head; the scale is the per-head width d_k read from q after the split; the softmax runs over the keys
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/DevAnnafi/Attention_From_Scratch https://github.com/DevAnnafi/Attention_From_Scratch/commit/5f88cdd75ec46e8c89b5ab2c64f7e01645c9686e src/attention.py
import math

import torch


def attention(q, k, v, mask=None):
    scores = q @ torch.transpose(k, -2, -1)
    d_k = q.shape[-1]
    scores = scores / math.sqrt(d_k)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v


def split_heads(x, num_heads):
    batch, seq, d_model = x.shape[0], x.shape[1], x.shape[2]
    d_k = d_model // num_heads
    return x.reshape(batch, seq, num_heads, d_k).transpose(1, 2)


def merge_heads(x):
    batch, heads, seq, d_k = x.shape
    return x.transpose(1, 2).reshape(batch, seq, heads * d_k)


if __name__ == "__main__":
    q = torch.tensor([[3.0, 4.0], [8.0, 2.0]])
    k = torch.tensor([[7.0, 6.0], [5.0, 9.0]])
    v = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    print(attention(q, k, v))
