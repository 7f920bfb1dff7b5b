import torch
import torch.nn as nn

from modules.layers import EncoderLayer


class Bert(nn.Module):
    def __init__(self, vocab: int, hidden: int = 256, heads: int = 4, layers: int = 4, dropout: float = 0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, hidden)
        self.seg = nn.Embedding(2, hidden)
        self.pos = nn.Embedding(512, hidden)
        self.layers = nn.ModuleList([EncoderLayer(hidden, heads, 4 * hidden, dropout) for _ in range(layers)])
        self.pool = nn.Linear(hidden, hidden)

    def forward(self, x, token_type_ids=None, input_mask=None):
        if input_mask is not None and input_mask.dim() == 2:
            # (B, S) -> (B, 1, S, S)
            input_mask = input_mask.unsqueeze(1).repeat(1, x.size(1), 1).unsqueeze(1)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(x)
        pos = torch.arange(x.size(1), device=x.device)
        h = self.tok(x) + self.seg(token_type_ids) + self.pos(pos)
        for layer in self.layers:
            h = layer(h, input_mask)
        return h, torch.tanh(self.pool(h[:, 0]))
