# case: t17j-01-clean
# modelled-on: jy1559/RSASRec https://github.com/jy1559/RSASRec/commit/070af1a90ed815d08f8a02964f937345ef67e94b
# label: correct
# class: clean
# pattern: a sequential recommender's multi-head self-attention built as a ModuleList of heads, each with its own query / key / value Linear(embedding_dim, embedding_dim); scores per head are Q @ K^T divided by the square root of the full embedding width, a tril causal mask is applied with masked_fill(~causal, -inf), the padding keep mask with masked_fill(mask == 0, -inf), rows that are entirely -inf are set to 0 before the softmax and their weights zeroed with torch.where afterwards; the heads are concatenated and projected back, and padded positions zeroed on the output
# why: correct: every head projects to the full embedding width, so the per-head key width is embedding_dim and dividing by its square root is the standard scale; ~tril hides exactly the future; the padding mask is a keep mask (1 = real interaction) filled where it equals 0; the -inf fill cannot produce NaN because fully masked rows are neutralised before the softmax and set to 0 after it (a query-row reset, not a key mask after the softmax)
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/jy1559/RSASRec https://github.com/jy1559/RSASRec/commit/070af1a90ed815d08f8a02964f937345ef67e94b models/sub3_attention.py
import torch
import torch.nn as nn


class HeadListSelfAttention(nn.Module):
    def __init__(self, dim=384, heads=8, dropout=0.2, max_len=None):
        super().__init__()
        self.dim = dim
        self.max_len = max_len
        self.heads = nn.ModuleList(
            [
                nn.ModuleDict({"q": nn.Linear(dim, dim), "k": nn.Linear(dim, dim), "v": nn.Linear(dim, dim)})
                for _ in range(heads)
            ]
        )
        self.drop = nn.Dropout(dropout)
        self.proj = nn.Linear(heads * dim, dim)

    def forward(self, x, mask):
        # x: (batch, steps, dim); mask: (batch, steps), 1 = real interaction
        batch, steps, dim = x.shape
        if self.max_len is not None and steps > self.max_len:
            x = x[:, : self.max_len, :]
            mask = mask[:, : self.max_len]
            steps = self.max_len

        outs = []
        for head in self.heads:
            q = head["q"](x)
            k = head["k"](x)
            v = head["v"](x)
            scores = torch.matmul(q, k.transpose(-2, -1)) / (dim ** 0.5)

            causal = torch.tril(torch.ones((steps, steps), device=x.device)).bool().unsqueeze(0)
            scores = scores.masked_fill(~causal, float("-inf"))
            scores = scores.masked_fill(mask.unsqueeze(1) == 0, float("-inf"))

            dead = torch.isinf(scores).all(dim=-1, keepdim=True)
            safe = scores.masked_fill(dead, 0.0)
            weights = torch.softmax(safe, dim=-1)
            weights = torch.where(dead, torch.zeros_like(weights), weights)

            outs.append(torch.matmul(self.drop(weights), v))

        out = self.proj(torch.cat(outs, dim=-1))
        return out * mask.unsqueeze(-1)
