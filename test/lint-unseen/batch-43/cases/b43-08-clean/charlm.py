# case: b43-08-clean
# modelled-on: AwaisMehmoodBaig/decoder-only-transformer-shakespeare https://github.com/AwaisMehmoodBaig/decoder-only-transformer-shakespeare/commit/03a5dccaa160efdecb5f446d0544352c95e76e1b
# label: correct
# class: clean
# pattern: a character-level decoder-only transformer (a folder: the model, the pre-norm block and the attention module with a single-head variant): the model builds tril(ones(T, T)) (1 = may attend) shaped (1, 1, T, T) in its forward and hands it through every block to a multi-head self-attention that divides Q K^T by head_dim ** 0.5 and fills mask == 0 with -inf before softmax(dim=-1); the attention module also has a single-head attention (used for experiments) that divides by embed_dim ** 0.5; generation re-runs the whole prefix (no cache)
# why: correct: the tril mask holds 1 on and below the diagonal, so mask == 0 selects the future positions; the diagonal keeps every row finite; the multi-head path scales by the per-head width and the single-head path's only head is embed_dim wide, so embed_dim ** 0.5 is its 1/sqrt(d_k); without a cache the square triangle is always aligned
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/AwaisMehmoodBaig/decoder-only-transformer-shakespeare https://github.com/AwaisMehmoodBaig/decoder-only-transformer-shakespeare/commit/03a5dccaa160efdecb5f446d0544352c95e76e1b trainer_decoder_shakespeare.py
import torch
from torch import nn

from block import PreNormBlock


class CharDecoder(nn.Module):
    def __init__(self, vocab, width, heads, ff_width, depth, max_len=1000):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(torch.zeros(1, max_len, width))
        self.blocks = nn.ModuleList([PreNormBlock(width, heads, ff_width) for _ in range(depth)])
        self.final_norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, idx):
        _, t = idx.shape
        h = self.tokens(idx) + self.positions[:, :t]
        allowed = torch.tril(torch.ones(t, t, device=idx.device))[None, None]
        for blk in self.blocks:
            h = blk(h, mask=allowed)
        return self.head(self.final_norm(h))

    @torch.no_grad()
    def sample(self, idx, steps, context):
        for _ in range(steps):
            logits = self(idx[:, -context:])[:, -1]
            nxt = torch.multinomial(torch.softmax(logits, dim=-1), 1)
            idx = torch.cat([idx, nxt], dim=1)
        return idx
