# case: b42-05-clean
# modelled-on: ArthurConmy/grok https://github.com/ArthurConmy/grok/commit/ff249d31cb1248aa60bba84ba8721ae50b44edbf
# label: correct
# class: clean
# pattern: small decoder-only transformer for grokking experiments (modular arithmetic): fused qkv projection split with einops into (batch, heads, seq, head) tensors, einsum q.k with 'bnil,bnjl->bnij', divided in place by head_size ** 0.5; the logits are first passed through tril and then every position strictly above the diagonal is set to -1e4 by boolean indexing, softmax over the last axis, einsum with v; heads can be zeroed for ablations; float32 throughout
# why: correct: the in-place division is the 1/sqrt(head_size) scale; tril zeroes the upper triangle and the boolean assignment then overwrites exactly that triangle with -1e4, so the future is masked before the softmax (in float32, exp(-1e4) underflows to 0, and the lower triangle keeps its logits); the softmax is over the key axis j
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/ArthurConmy/grok https://github.com/ArthurConmy/grok/commit/ff249d31cb1248aa60bba84ba8721ae50b44edbf model/transformer.py
import torch as t
import torch.nn.functional as F
from einops import rearrange


class MaskedHeads(t.nn.Module):
    def __init__(self, width, n_heads):
        assert width % n_heads == 0
        super().__init__()
        self.width = width
        self.n_heads = n_heads
        self.head_size = width // n_heads
        self.qkv = t.nn.Linear(width, 3 * width, bias=False)
        self.out = t.nn.Linear(width, width, bias=False)
        t.nn.init.xavier_uniform_(self.qkv.weight)
        t.nn.init.xavier_uniform_(self.out.weight)
        self.silenced = None
        self.pattern = None

    def forward(self, x):
        q, k, v = t.split(self.qkv(x), self.width, dim=-1)
        q, k, v = (rearrange(m, "b s (n h) -> b n s h", n=self.n_heads) for m in (q, k, v))
        if self.silenced is not None:
            for m in (q, k, v):
                m[:, self.silenced] = 0

        att = t.einsum("bnil,bnjl->bnij", q, k)
        att /= self.head_size ** 0.5
        att = t.tril(att)
        future = t.triu(t.ones_like(att), diagonal=1).bool()
        att[future] = -1e4
        att = F.softmax(att, dim=-1)
        self.pattern = att.detach().clone()

        mixed = t.einsum("bnij,bnjh->bnih", att, v)
        return self.out(rearrange(mixed, "b n i h -> b i (n h)"))

    def silence(self, heads):
        """Ablate the given heads from now on."""
        self.silenced = heads


class Block(t.nn.Module):
    def __init__(self, width, n_heads, p_drop):
        super().__init__()
        self.attn = MaskedHeads(width, n_heads)
        self.ln_attn = t.nn.LayerNorm(width)
        self.fc_in = t.nn.Linear(width, 4 * width, bias=False)
        self.fc_out = t.nn.Linear(4 * width, width, bias=False)
        self.ln_mlp = t.nn.LayerNorm(width)
        self.drop = t.nn.Dropout(p_drop)

    def forward(self, x):
        x = self.ln_attn(x + self.attn(x))
        hidden = self.drop(F.gelu(self.fc_in(x)))
        return self.ln_mlp(x + self.fc_out(hidden))
