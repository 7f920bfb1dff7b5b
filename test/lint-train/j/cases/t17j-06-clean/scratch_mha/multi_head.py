import torch
import torch.nn as nn

from scratch_mha.single_head import SingleHeadFromScratch, attention_weights


class MultiHeadFromScratch(SingleHeadFromScratch):
    def __init__(self, embed_dim, n_heads):
        super().__init__(embed_dim)
        self.n_heads = n_heads
        self.head_dim = embed_dim // n_heads

    def forward(self, x):
        batch, seq, emb = x.shape
        q, k, v = self.project(x)  # (seq, batch, emb)
        # fold the heads into the batch axis, as nn.MultiheadAttention does
        q = q.view(seq, batch * self.n_heads, self.head_dim).transpose(0, 1)
        k = k.view(seq, batch * self.n_heads, self.head_dim).transpose(0, 1)
        v = v.view(seq, batch * self.n_heads, self.head_dim).transpose(0, 1)

        weights = attention_weights(q, k)  # (batch * heads, seq, seq)
        out = torch.bmm(weights, v)
        out = out.transpose(0, 1).contiguous().view(seq * batch, emb)
        out = nn.functional.linear(out, self.out_proj.weight, self.out_proj.bias)
        out = out.view(seq, batch, out.size(1)).transpose(0, 1)

        weights = weights.view(batch, self.n_heads, seq, seq).mean(dim=1)
        return out, weights
