import torch
import torch.nn as nn


class BertEmbeddings(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int, max_len: int = 512):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.seg = nn.Embedding(2, hidden_size)
        self.pos = nn.Embedding(max_len, hidden_size)
        self.norm = nn.LayerNorm(hidden_size)

    def forward(self, input_ids, segment_ids):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)[None]
        return self.norm(self.tok(input_ids) + self.seg(segment_ids) + self.pos(pos))

    def forward_mask(self, input_ids: torch.Tensor) -> torch.Tensor:
        """True for real tokens, False for padding (id 0)."""
        return input_ids != 0
