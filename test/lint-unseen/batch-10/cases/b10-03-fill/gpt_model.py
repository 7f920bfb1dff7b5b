# case: b10-03-fill
# modelled-on: brajrajnagar/learn-gpt-from-scratch https://github.com/brajrajnagar/learn-gpt-from-scratch/commit/7fdb2c5
# label: buggy
# class: real-bug
# pattern: an additive causal mask built in a helper module as triu(ones, 1) * -inf, so every allowed position is 0 * -inf = NaN; the attention adds it to the scores
# why: commit 7fdb2c5 ("fix: causal mask NaN bug") builds it with triu(full(-inf), 1); the helper's docstring shows 0 below the diagonal, and 0 * -inf is NaN in IEEE arithmetic, so every softmax row is NaN
# source: https://github.com/brajrajnagar/learn-gpt-from-scratch https://github.com/brajrajnagar/learn-gpt-from-scratch/commit/7fdb2c5 06_gpt_model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from masks import create_causal_mask


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.register_buffer("causal_mask", None)

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_k).transpose(1, 2)

    def _merge(self, x):
        b, _, t, _ = x.shape
        return x.transpose(1, 2).contiguous().view(b, t, self.d_model)

    def forward(self, x):
        seq_len = x.shape[1]
        q = self._split(self.W_q(x))
        k = self._split(self.W_k(x))
        v = self._split(self.W_v(x))

        if self.causal_mask is None or self.causal_mask.shape[-1] < seq_len:
            self.causal_mask = create_causal_mask(seq_len)[None, None].to(x.device)
        mask = self.causal_mask[:, :, :seq_len, :seq_len]

        scores = torch.matmul(q, k.transpose(-2, -1)) / (self.d_k**0.5)
        scores = scores + mask
        attn = F.softmax(scores, dim=-1)
        return self.W_o(self._merge(torch.matmul(attn, v)))


class Block(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = MultiHeadAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


if __name__ == "__main__":
    block = Block(64, 4)
    out = block(torch.randn(2, 10, 64))
    print(out.shape, torch.isnan(out).any())
