# case: t30w-05-clean
# modelled-on: mrapplexz/kaggle-asl https://github.com/mrapplexz/kaggle-asl/commit/a26c0dc1a5b65d0d709564cafecc23b4fdd70a7e
# label: correct
# class: clean
# pattern: a sign-language clip classifier: the collate function in another module pads frame positions with 0 and turns positions != 0 into a BERT-style additive mask with a helper from a third module ((1.0 - mask) * torch.finfo(float32).min, shape (B, S) after squeezing); the model prepends a CLS vector (its position 1 is never padding), unsqueezes the additive mask to (B, 1, 1, S) and adds it to the scaled scores of a RoBERTa-style encoder layer (written out here as the library layer computes it), then mean-pools with att_mask == 0 as the flag of real frames
# why: correct: the helper's input is the keep mask (True on real frames), so 1 - mask is 1 on padding and the additive mask is 0 on real frames and the float32 minimum on padding, which the layer adds to the scores (finite, zero weight after the softmax); the pooler's att_mask == 0 reads the additive mask back, where 0 means real, so it averages exactly the CLS slot and the real frames; every row keeps the CLS key
# looks-like: ATT002, ATT007
# source: https://github.com/mrapplexz/kaggle-asl https://github.com/mrapplexz/kaggle-asl/commit/a26c0dc1a5b65d0d709564cafecc23b4fdd70a7e src/kekpipe/model.py
import math
from typing import Optional

import torch
from torch import Tensor, nn

EMBED_DIM = 384
MAX_POSITIONS = 256


class EncoderLayer(nn.Module):
    def __init__(self, dim: int, heads: int = 4, dropout: float = 0.1) -> None:
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.query, self.key, self.value = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.drop = nn.Dropout(dropout)

    def split(self, x: Tensor) -> Tensor:
        b, s, _ = x.shape
        return x.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x: Tensor, additive_mask: Optional[Tensor]) -> Tensor:
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if additive_mask is not None:
            scores = scores + additive_mask  # (B, 1, 1, S): 0 or float32 min
        probs = self.drop(nn.functional.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(x.shape)
        x = self.norm1(x + self.drop(self.out(ctx)))
        return self.norm2(x + self.drop(self.ffn(x)))


class PoolerFinal(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.dense = nn.Linear(dim, dim)

    def forward(self, hidden: Tensor, att_mask: Optional[Tensor]) -> Tensor:
        if att_mask is not None:
            real = att_mask.squeeze(1).squeeze(1) == 0  # additive mask: 0 on real frames
            pooled = (real.unsqueeze(2) * hidden).sum(dim=1) / real.sum(dim=1).unsqueeze(1)
        else:
            pooled = hidden.mean(dim=1)
        return torch.tanh(self.dense(pooled))


class SequenceEmbedder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.cls_vector = nn.Parameter(torch.randn(EMBED_DIM))
        self.pos = nn.Embedding(MAX_POSITIONS, EMBED_DIM)
        self.encoder = EncoderLayer(EMBED_DIM)
        self.norm = nn.LayerNorm(EMBED_DIM)
        self.pooler = PoolerFinal(EMBED_DIM)

    def forward(self, frames: Tensor, frame_positions: Tensor, frame_att_mask: Optional[Tensor]) -> Tensor:
        if frame_att_mask is not None:
            frame_att_mask = frame_att_mask.unsqueeze(1).unsqueeze(1)  # (B, 1, 1, S)
        cls = self.cls_vector[None, None, :].expand(frames.shape[0], 1, -1)
        x = self.norm(torch.cat((cls, frames), dim=1)) + self.pos(frame_positions)
        x = self.encoder(x, frame_att_mask)
        return self.pooler(x, frame_att_mask)
