# label: buggy
# why: per-head scores (head dim 16) are scaled by 1/sqrt(d_model=128) instead of 1/sqrt(16)
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model=128, num_heads=8):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.dense = nn.Linear(d_model, d_model)

    def split_heads(self, x, batch_size):
        x = x.view(batch_size, -1, self.num_heads, self.depth)
        return x.permute(0, 2, 1, 3)

    def forward(self, v, k, q, mask=None):
        batch_size = q.size(0)
        q = self.split_heads(self.wq(q), batch_size)
        k = self.split_heads(self.wk(k), batch_size)
        v = self.split_heads(self.wv(v), batch_size)
        matmul_qk = torch.matmul(q, k.transpose(-1, -2))
        scaled_attention_logits = matmul_qk / math.sqrt(self.d_model)  # expect: ATT004
        if mask is not None:
            scaled_attention_logits += mask * -1e9
        attention_weights = torch.softmax(scaled_attention_logits, dim=-1)
        output = torch.matmul(attention_weights, v)
        output = output.permute(0, 2, 1, 3).reshape(batch_size, -1, self.d_model)
        return self.dense(output), attention_weights


if __name__ == "__main__":
    torch.manual_seed(9)
    mha = MultiHeadAttention()
    y = torch.rand(2, 15, 128)
    out, attn = mha(y, k=y, q=y, mask=None)
    print(out.shape, attn.shape)
