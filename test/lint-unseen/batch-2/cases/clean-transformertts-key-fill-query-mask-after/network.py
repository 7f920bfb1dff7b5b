import torch as t
import torch.nn as nn

from module import MultiHeadBlock


class TextEncoder(nn.Module):
    def __init__(self, embedding_size: int, num_hidden: int, vocab: int = 80, layers: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab, embedding_size, padding_idx=0)
        self.proj = nn.Linear(embedding_size, num_hidden)
        self.layers = nn.ModuleList([MultiHeadBlock(num_hidden) for _ in range(layers)])

    def forward(self, x, pos):
        # x, pos: (B, T) character ids and 1-based positions, 0 = padding
        if self.training:
            c_mask = pos.ne(0).type(t.float)  # (B, T) query mask, 1 = real character
            mask = pos.eq(0).unsqueeze(1).repeat(1, x.size(1), 1)  # (B, T, T) key mask, True = padding
        else:
            c_mask, mask = None, None
        x = self.proj(self.embed(x))
        attns = []
        for layer in self.layers:
            x, attn = layer(x, x, mask=mask, query_mask=c_mask)
            attns.append(attn)
        return x, c_mask, attns
