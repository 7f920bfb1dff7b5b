# case: b23-14-clean
# modelled-on: DoodlingAWorld/sasrec-pytorch https://github.com/DoodlingAWorld/sasrec-pytorch/commit/09ea4653e0678e0526a384146acfeed2ca96e3f5
# label: correct
# class: clean
# pattern: a SASRec sequential recommender on left-padded item sequences: the model builds a boolean keep mask seq != 0 and passes it to blocks in another module, whose single-head attention scales q @ k.transpose(1, 2) by dim ** -0.5, ANDs a tril causal mask (True = allowed) with the keep mask of the keys, fills ~allowed with -inf, takes softmax(dim=-1) and scrubs the NaN rows of padded queries with nan_to_num; the item embeddings are multiplied by sqrt(d) before the blocks
# why: correct: allowed is True exactly where j <= i and key j is a real item, so ~allowed blocks the future and the padding; a left-padded query row is all -inf and becomes NaN, which nan_to_num zeroes (and the block zeroes those positions anyway); with one head d_k is the full width, so dim ** -0.5 is the right scale; the sqrt(d) factor scales embeddings, not attention scores
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/DoodlingAWorld/sasrec-pytorch https://github.com/DoodlingAWorld/sasrec-pytorch/commit/09ea4653e0678e0526a384146acfeed2ca96e3f5 src/sasrec/modules.py
import torch
import torch.nn as nn

from seqrec.blocks import LN_EPS, Block


class SASRec(nn.Module):
    def __init__(self, num_items: int, max_len: int = 200, dim: int = 50, n_blocks: int = 2, dropout: float = 0.2):
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 1, dim, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, dim)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([Block(dim, dropout) for _ in range(n_blocks)])
        self.last_norm = nn.LayerNorm(dim, eps=LN_EPS)

    def encode(self, seq: torch.Tensor) -> torch.Tensor:
        # seq: [B, L] item ids, left-padded with 0
        keep = seq != 0
        x = self.item_emb(seq) * (self.item_emb.embedding_dim**0.5)
        x = x + self.pos_emb(torch.arange(seq.shape[1], device=seq.device)).unsqueeze(0)
        x = self.drop(x) * keep.unsqueeze(-1)
        for block in self.blocks:
            x = block(x, keep)
        return self.last_norm(x)

    def forward(self, seq, pos, neg):
        h = self.encode(seq)
        return (h * self.item_emb(pos)).sum(-1), (h * self.item_emb(neg)).sum(-1)

    @torch.no_grad()
    def predict(self, seq, candidates):
        last = self.encode(seq)[:, -1, :]  # the most recent item is rightmost
        return (self.item_emb(candidates) * last.unsqueeze(1)).sum(-1)
