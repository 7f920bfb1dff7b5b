# case: t44ff-08-clean
# modelled-on: koyui/GPT2-From-Scratch https://github.com/koyui/GPT2-From-Scratch/commit/c508be43558a6fe9325967373cab5e10fda9d997
# label: correct
# class: clean
# pattern: a GPT-2 trained on rating-prefixed reviews: einsum attention `bnij,bnkj->bnik` over (B, heads, T, head_dim), a registered `tril(ones)` buffer sliced `[:, :, :T, :T]` and filled where it is 0; the model's `forward` also takes a 0/1 `mask` from the dataset (another module: 0 on the rating prefix and the padding, 1 on the review) and multiplies it into the per-token cross-entropy after the logits, never into the attention
# why: correct: the keep-mask buffer is filled where it is 0 (the future), there is no cache so the square slice is right; the dataset's `mask` weights the LOSS of each position (prefix and padding not trained on), it is not an attention mask and is applied to `cross_entropy(..., reduction='none')`, not to attention weights; the right padding sits after every real token, so under the causal mask no real token attends to it
# looks-like: ATT002, ATT006, ATT008
# source: https://github.com/koyui/GPT2-From-Scratch https://github.com/koyui/GPT2-From-Scratch/commit/c508be43558a6fe9325967373cab5e10fda9d997 models/model.py
import math

import torch
import torch.nn as nn
from torch.nn import functional as F


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head = cfg.n_head
        self.width = cfg.width
        self.hd = cfg.width // cfg.n_head
        self.qkv = nn.Linear(cfg.width, 3 * cfg.width)
        self.proj = nn.Linear(cfg.width, cfg.width)
        tri = torch.tril(torch.ones(cfg.ctx, cfg.ctx))
        self.register_buffer("tri", tri.view(1, 1, cfg.ctx, cfg.ctx))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(self.width, dim=2)
        q = q.view(B, T, self.n_head, self.hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.hd).transpose(1, 2)
        att = torch.einsum("bnij,bnkj->bnik", q, k).float() / math.sqrt(self.hd)
        att = att.masked_fill(self.tri[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = torch.einsum("bnij,bnjk->bnik", att, v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.width)
        self.attn = SelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.width)
        self.ff = nn.Sequential(nn.Linear(cfg.width, 4 * cfg.width), nn.GELU(), nn.Linear(4 * cfg.width, cfg.width))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class ReviewGPT(nn.Module):
    def __init__(self, cfg, pad_id):
        super().__init__()
        self.cfg = cfg
        self.pad_id = pad_id
        self.tok = nn.Embedding(cfg.vocab + 3, cfg.width)
        self.pos = nn.Embedding(cfg.ctx, cfg.width)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.depth)])
        self.ln_f = nn.LayerNorm(cfg.width)
        self.lm_head = nn.Linear(cfg.width, cfg.vocab + 3, bias=False)

    def forward(self, idx, targets=None, mask=None):
        _, T = idx.shape
        assert T <= self.cfg.ctx, "sequence longer than the context"
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        for blk in self.blocks:
            x = blk(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if targets is not None:
            per_tok = F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1),
                                      ignore_index=self.pad_id, reduction="none")
            loss = torch.sum(mask.reshape(-1) * per_tok) / torch.sum(mask)
        return logits, loss
