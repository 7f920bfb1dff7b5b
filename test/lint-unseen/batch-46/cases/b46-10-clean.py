# case: b46-10-clean
# modelled-on: amau457/tiny-transformer-PyTorch https://github.com/amau457/tiny-transformer-PyTorch/commit/c06a4d3631340b57535e3ae060d5c309efe2510d
# label: correct
# class: clean
# pattern: toy character-level causal transformer in one script: the model builds the mask in its own forward as tril(ones(T, T)) with 1 = keep, unsqueezed to (1, 1, T, T), and hands the same mask to every block; each block projects q, k and v separately, permutes them to (B, heads, T, head_dim), divides q @ k^T by sqrt(head_dim), fills -inf where mask == 0, takes softmax(dim=-1) and uses post-norm residuals; generation crops the context to seq_len and re-runs it for every new character
# why: correct: the mask is created by the caller as a keep mask and the block fills where it is 0, the future positions; it is rebuilt for the current T at every call, so it always matches the square scores (there is no cache; generation re-runs the cropped window); the scale is the per-head size; the softmax in generation is over the vocabulary
# looks-like: ATT002, ATT008
# source: https://github.com/amau457/tiny-transformer-PyTorch https://github.com/amau457/tiny-transformer-PyTorch/commit/c06a4d3631340b57535e3ae060d5c309efe2510d pytorch_tiny_causal_transformer.py
import math

import torch
import torch.nn.functional as F
from torch import nn

WIDTH, DEPTH, HEADS, WINDOW = 128, 4, 4, 64


class PostNormBlock(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        assert width % heads == 0
        self.heads, self.hd = heads, width // heads
        self.to_q, self.to_k, self.to_v = (nn.Linear(width, width) for _ in range(3))
        self.to_o = nn.Linear(width, width)
        self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def _heads(self, t, B, T):
        return t.view(B, T, self.heads, self.hd).permute(0, 2, 1, 3)

    def forward(self, x, keep):
        B, T, C = x.shape
        q, k, v = (self._heads(f(x), B, T) for f in (self.to_q, self.to_k, self.to_v))
        att = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
        att = att.masked_fill(keep == 0, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        y = self.to_o(y.permute(0, 2, 1, 3).contiguous().view(B, T, C))
        x = self.norm1(x + y)
        return self.norm2(x + self.mlp(x))


class CharLM(nn.Module):
    def __init__(self, vocab: int, window: int = WINDOW):
        super().__init__()
        self.window = window
        self.tok = nn.Embedding(vocab, WIDTH)
        self.pos = nn.Embedding(window, WIDTH)
        self.blocks = nn.ModuleList(PostNormBlock(WIDTH, HEADS) for _ in range(DEPTH))
        self.norm = nn.LayerNorm(WIDTH)
        self.out = nn.Linear(WIDTH, vocab, bias=False)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        assert T <= self.window, "sequence longer than the window"
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))[None]
        keep = torch.tril(torch.ones(T, T, device=idx.device))[None, None]  # 1 = may attend
        for blk in self.blocks:
            x = blk(x, keep)
        logits = self.out(self.norm(x))
        if targets is None:
            return logits
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    @torch.no_grad()
    def generate(self, idx, n_new: int = 100):
        for _ in range(n_new):
            logits = self(idx[:, -self.window:])
            nxt = torch.multinomial(F.softmax(logits[:, -1], dim=-1), num_samples=1)
            idx = torch.cat([idx, nxt], dim=1)
        return idx
