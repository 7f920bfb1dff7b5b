# case: t44ff-01-clean
# modelled-on: HaopengLiu-1992/mini-llm https://github.com/HaopengLiu-1992/mini-llm/commit/408b9bba65c14fec03cc9d16b4e6749faa330948
# label: correct
# class: clean
# pattern: a GPT-2 style serving stack: the attention layer fills `masked_fill(mask, -inf)` where the mask is True, the model (another module) builds that mask as `triu(ones, diagonal=1)` (True above the diagonal = future) OR-ed with a right-padding mask, and the runner (a third module) builds the padding mask as `positions >= lengths` (True on padding) and re-runs the whole padded prompt each step, with no KV cache
# why: correct: True means "blocked" at every layer (strict upper triangle = future keys, padding keys), so `masked_fill(mask, -inf)` removes exactly the keys a query must not see; every query row keeps key 0 (a real token) so no row is all -inf; scale 1/sqrt(head_dim); there is no cache, so the square causal triangle is the right shape
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/HaopengLiu-1992/mini-llm https://github.com/HaopengLiu-1992/mini-llm/commit/408b9bba65c14fec03cc9d16b4e6749faa330948 inference/layers/attention.py
import torch
import torch.nn as nn


class MultiHead(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        assert width % heads == 0, "width must split evenly over heads"
        self.width = width
        self.heads = heads
        self.hd = width // heads
        self.q_proj = nn.Linear(width, width)
        self.k_proj = nn.Linear(width, width)
        self.v_proj = nn.Linear(width, width)
        self.out_proj = nn.Linear(width, width)

    def attend(self, q, k, v, mask=None):
        logits = q @ k.transpose(-2, -1) / (self.hd ** 0.5)
        if mask is not None:
            logits = logits.masked_fill(mask, float("-inf"))
        probs = torch.softmax(logits, dim=-1)
        return probs @ v

    def forward(self, q, k, v, mask=None):
        q, k, v = self.q_proj(q), self.k_proj(k), self.v_proj(v)
        bsz, n_q, _ = q.shape
        n_k = k.shape[1]
        q = q.view(bsz, n_q, self.heads, self.hd).transpose(1, 2)
        k = k.view(bsz, n_k, self.heads, self.hd).transpose(1, 2)
        v = v.view(bsz, n_k, self.heads, self.hd).transpose(1, 2)
        out = self.attend(q, k, v, mask)
        out = out.transpose(1, 2).contiguous().view(bsz, n_q, self.width)
        return self.out_proj(out)
