import torch
import torch.nn as nn

from .memory import PagedExactMemory
from .mha import RetrievalReader


class RecallLayer(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.d_head = dim // heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.kv_proj = nn.Linear(dim, 2 * dim, bias=False)
        self.reader = RetrievalReader(heads, self.d_head)
        self.out = nn.Linear(dim, dim, bias=False)
        self.memory = PagedExactMemory(heads, self.d_head)

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.d_head).transpose(1, 2)

    def forward(self, chunk: torch.Tensor) -> torch.Tensor:
        q = self._heads(self.q_proj(chunk))
        retrieved_k, retrieved_v, retrieved_mask = self.memory.retrieve(chunk.shape[0], chunk.device, q.dtype)
        read = self.reader(q, retrieved_k, retrieved_v, retrieved_mask=retrieved_mask)
        k, v = (self._heads(t) for t in self.kv_proj(chunk).chunk(2, dim=-1))
        for i in range(chunk.shape[0]):
            self.memory.append(i, k[i], v[i])
        b, _, t, _ = read.shape
        return self.out(read.transpose(1, 2).reshape(b, t, -1))
