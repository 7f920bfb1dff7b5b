# case: b39-06-clean
# modelled-on: lucidrains/charformer-pytorch https://github.com/lucidrains/charformer-pytorch/commit/0560797d045148d473c18a7a3914c9dfb547d9f4
# label: correct
# class: clean
# pattern: Gradient-Based Subword Tokenization (Charformer's GBST): character embeddings are mean-pooled into candidate blocks of several sizes, the block representations are stacked on a new axis 2 (batch, n, n_block_sizes, dim), a linear layer scores each candidate, scores of blocks that hold no real character are filled with -finfo.max and softmaxed over dim=2 (over the block sizes, per position); then the paper's "score consensus" attention forms P P^T between positions from those score vectors, masks non-character pairs with -finfo.max, softmaxes over the last axis with no 1/sqrt(d) scale, and mixes the score vectors with it; the blocks are weighted by the final scores and summed
# why: correct: GBST picks a mixture of block sizes at each position, so the first softmax belongs over the block-size axis (dim 2), not over the sequence; the consensus step is equation 5 of the paper, softmax(P P^T) over positions with P the (n, M) score matrix, which the paper leaves unscaled (M is the small number of block sizes); both fills use the keep masks through ~mask and the largest negative finite value
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/lucidrains/charformer-pytorch https://github.com/lucidrains/charformer-pytorch/commit/0560797d045148d473c18a7a3914c9dfb547d9f4 charformer_pytorch/charformer_pytorch.py
import math

import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn


def pooled_blocks(x, keep, size):
    """Mean of each run of `size` characters, ignoring padding; repeated back to length."""
    blocks = rearrange(x, "b (n m) d -> b n m d", m=size)
    block_keep = rearrange(keep, "b (n m) -> b n m", m=size)
    total = block_keep.sum(dim=-1, keepdim=True).clamp(min=1)
    mean = (blocks * block_keep.unsqueeze(-1)).sum(dim=-2) / total
    any_char = block_keep.any(dim=-1)
    return repeat(mean, "b n d -> b (n m) d", m=size), repeat(any_char, "b n -> b (n m)", m=size)


class SubwordBlocks(nn.Module):
    def __init__(self, n_chars, dim, block_sizes=(1, 2, 3, 4), downsample=4, consensus=True):
        super().__init__()
        self.embed = nn.Embedding(n_chars, dim)
        self.block_sizes = block_sizes
        self.pad_to = math.lcm(*block_sizes)
        self.to_score = nn.Linear(dim, 1)
        self.consensus = consensus
        self.downsample = downsample

    def forward(self, chars, keep):
        b, n = chars.shape
        x = self.embed(chars)
        target = math.ceil(n / self.pad_to) * self.pad_to
        x = F.pad(x, (0, 0, 0, target - n))
        keep = F.pad(keep, (0, target - n), value=False)

        reprs, masks = zip(*(pooled_blocks(x, keep, s) for s in self.block_sizes))
        reprs = torch.stack(reprs, dim=2)            # (b, n, M, d)
        block_keep = torch.stack(masks, dim=2)       # (b, n, M)

        scores = self.to_score(reprs).squeeze(-1)    # (b, n, M)
        neg = -torch.finfo(scores.dtype).max
        scores = scores.masked_fill(~block_keep, neg)
        scores = scores.softmax(dim=2)               # mixture over block sizes

        if self.consensus:
            agree = einsum("b i m, b j m -> b i j", scores, scores)
            pair_keep = keep.unsqueeze(2) & keep.unsqueeze(1)
            agree = agree.masked_fill(~pair_keep, -torch.finfo(agree.dtype).max)
            scores = einsum("b i j, b j m -> b i m", agree.softmax(dim=-1), scores)

        x = (reprs * scores.unsqueeze(-1)).sum(dim=2)

        length = math.ceil(n / self.downsample) * self.downsample
        x, keep = x[:, :length], keep[:, :length]
        x = rearrange(x, "b (n m) d -> b n m d", m=self.downsample)
        keep = rearrange(keep, "b (n m) -> b n m", m=self.downsample)
        pooled = (x * keep.unsqueeze(-1)).sum(dim=2) / keep.sum(dim=2, keepdim=True).clamp(min=1)
        return pooled, keep.any(dim=-1)
