# case: b20-01-clean
# modelled-on: theeluwin/session-aware-bert4rec https://github.com/theeluwin/session-aware-bert4rec/commit/340b9df291e9fcbcc7b83841b222a505a314ab06
# label: correct
# class: clean
# pattern: a SASRec sequential recommender: the model builds an ignore mask, True at padding keys, as ~(tokens > 0).unsqueeze(1).repeat(1, L, 1).unsqueeze(1), and an autoregressive ignore mask ~tril(ones(L, L, bool)), ORs them and hands the (B, 1, L, L) result to transformer blocks in another module (layers/transformer.py), whose attention fills masked_fill(mask == 1, -1e9) before a dim=-1 softmax; the scores are divided by sqrt of the query width, which grows by a temporal feature width when time embeddings are concatenated to Q and K
# why: correct: the mask is True exactly where a key must be hidden (padding, or a future position) and mask == 1 on a bool tensor selects the True entries; sequences are left-padded, so the first rows of a short sequence see only padding keys and get uniform weights from the finite -1e9 (their outputs are never read for the loss), never NaN; the scale uses the actual width of the concatenated queries
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/theeluwin/session-aware-bert4rec https://github.com/theeluwin/session-aware-bert4rec/commit/340b9df291e9fcbcc7b83841b222a505a314ab06 models/sasrec.py
import torch
import torch.nn as nn

from .layers.transformer import Block


class SASRec(nn.Module):
    def __init__(self, num_items, seq_len=200, hidden=64, heads=2, layers=2, time_dim=0, dropout=0.2):
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 2, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(seq_len, hidden)
        self.time_proj = nn.Linear(1, time_dim) if time_dim else None
        self.blocks = nn.ModuleList([Block(heads, hidden, time_dim, dropout) for _ in range(layers)])
        self.out = nn.Linear(hidden, num_items + 1)

    def forward(self, tokens, stamps=None):
        b, L = tokens.shape
        device = tokens.device
        # True where the key is padding: (b, L) -> (b, 1, L) -> (b, L, L) -> (b, 1, L, L)
        pad = ~(tokens > 0).unsqueeze(1).repeat(1, L, 1).unsqueeze(1)
        # True where the key lies in the future of the query
        future = ~torch.tril(torch.ones((L, L), dtype=torch.bool, device=device))
        future = future.unsqueeze(0).repeat(b, 1, 1).unsqueeze(1)

        pos = torch.arange(L, device=device).unsqueeze(0)
        x = self.item_emb(tokens) + self.pos_emb(pos)
        t = self.time_proj(stamps.unsqueeze(-1)) if (stamps is not None and self.time_proj is not None) else None
        for block in self.blocks:
            x = block(x, t, pad | future)
        return self.out(x)
