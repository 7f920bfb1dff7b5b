# case: b41-09-clean
# modelled-on: chenziyiTHU/Selective-Attention-Pytorch https://github.com/chenziyiTHU/Selective-Attention-Pytorch/commit/d4219207b414b465fa6291a1d1a7630bb04ab883
# label: correct
# class: clean
# pattern: selective attention (Leviathan et al., 2024) in a small decoder-only LM: q and k are layer-normalised, logits = einsum(q, k) / sqrt(d_head), a boolean tril keep mask is applied with torch.where(..., -inf); head 0's logits, passed through ReLU with the BOS column and the diagonal zeroed, are shifted one row down (torch.roll) and accumulated with cumsum over the query axis into a soft "forgetting" score F that is subtracted from every head's logits before the softmax over the keys; the block returns F as well for the pruning loss
# why: correct: the tril keep mask goes to torch.where's condition with the logits as the kept branch, so future keys get -inf; F is subtracted before the softmax, as the paper's reference code does, so selected-away keys are down-weighted and the rows still normalise; ReLU(-inf) is 0, so masked entries add nothing to F; the roll plus zeroed first row makes F strictly causal (a query is affected only by earlier queries' selections); BOS and self are never selected away, so no row loses every key
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/chenziyiTHU/Selective-Attention-Pytorch https://github.com/chenziyiTHU/Selective-Attention-Pytorch/commit/d4219207b414b465fa6291a1d1a7630bb04ab883 model/model.py
import math

import torch
import torch.nn.functional as F
from torch import nn


class SelectiveSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        assert width % heads == 0
        self.width, self.heads, self.d_head = width, heads, width // heads
        self.wq = nn.Linear(width, width, bias=False)
        self.wk = nn.Linear(width, width, bias=False)
        self.wv = nn.Linear(width, width, bias=False)
        self.wo = nn.Linear(width, width, bias=False)
        self.q_norm = nn.LayerNorm(width)
        self.k_norm = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor):
        b, n, _ = x.shape
        shape = lambda t: t.view(b, n, self.heads, self.d_head).transpose(1, 2)
        q = shape(self.q_norm(self.wq(x)))
        k = shape(self.k_norm(self.wk(x)))
        v = shape(self.wv(x))

        logits = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.d_head)
        visible = torch.tril(torch.ones(n, n, dtype=torch.bool, device=x.device))[None, None]
        logits = torch.where(visible, logits, float("-inf"))

        # selection scores from head 0: never select BOS or a token's own key
        after_bos = (torch.arange(n, device=x.device) > 0).to(logits.dtype)
        sel = F.relu(logits[:, 0]) * after_bos * (1 - torch.eye(n, device=x.device))
        sel = torch.roll(sel, shifts=1, dims=-2) * after_bos[:, None]  # row 0: nothing selected yet
        forget = torch.cumsum(sel, dim=-2)  # (b, n, n)
        logits = logits - forget[:, None]

        probs = torch.softmax(logits, dim=-1)
        out = (probs @ v).transpose(1, 2).reshape(b, n, self.width)
        return self.wo(out), forget


class SwiGLU(nn.Module):
    def __init__(self, width: int, hidden: int):
        super().__init__()
        self.gate = nn.Linear(width, hidden, bias=False)
        self.up = nn.Linear(width, hidden, bias=False)
        self.down = nn.Linear(hidden, width, bias=False)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


class SelectiveLM(nn.Module):
    def __init__(self, vocab: int = 8000, width: int = 256, heads: int = 4, depth: int = 4):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.attn = nn.ModuleList(SelectiveSelfAttention(width, heads) for _ in range(depth))
        self.ffn = nn.ModuleList(SwiGLU(width, 4 * width) for _ in range(depth))
        self.norm_a = nn.ModuleList(nn.RMSNorm(width) for _ in range(depth))
        self.norm_f = nn.ModuleList(nn.RMSNorm(width) for _ in range(depth))
        self.final = nn.RMSNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, tokens: torch.Tensor):
        h = self.embed(tokens)
        forgets = []
        for attn, ffn, na, nf in zip(self.attn, self.ffn, self.norm_a, self.norm_f):
            delta, forget = attn(na(h))
            h = h + delta
            h = h + ffn(nf(h))
            forgets.append(forget)
        return self.head(self.final(h)).float(), forgets
