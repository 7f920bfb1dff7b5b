# case: b10-04-fill
# modelled-on: brajrajnagar/learn-gpt-from-scratch https://github.com/brajrajnagar/learn-gpt-from-scratch/commit/7fdb2c5
# label: correct
# class: fixed
# pattern: an additive causal mask built in a helper module as triu(full(-inf), 1) and added to the scaled scores before the softmax
# why: the code after commit 7fdb2c5 ("fix: causal mask NaN bug"): triu keeps -inf above the diagonal and writes exact zeros elsewhere, and the diagonal is never masked, so no row is all -inf
# looks-like: ATT002, ATT006, ATT007
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
