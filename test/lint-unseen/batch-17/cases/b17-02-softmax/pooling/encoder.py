import torch
from torch import nn

from pooling.lowrank import LowRankHeads


class SentenceEncoder(nn.Module):
    def __init__(self, vocab: int, dim: int, heads: int, pad_id: int = 0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.rnn = nn.GRU(dim, dim // 2, batch_first=True, bidirectional=True)
        self.pool = LowRankHeads(heads, dim)
        self.out = nn.Linear(heads * dim, dim)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        mask = (tokens != self.pad_id).float()
        states, _ = self.rnn(self.embed(tokens))
        return self.out(self.pool(states, mask, pool=True))
