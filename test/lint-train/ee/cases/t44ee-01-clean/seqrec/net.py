# case: t44ee-01-clean
# modelled-on: cccchensy/SASRecProject https://github.com/cccchensy/SASRecProject/commit/e424edfd4fbc0d5c1bb90b0e936249b3f9e65eca
# label: correct
# class: clean
# pattern: a SASRec-style next-item recommender: the dataset (another file) writes each history right-aligned into a zero-filled array (left padding, item 0 is padding); the model zeroes the padded embeddings, builds a boolean `triu(ones, diagonal=1)` matrix (True above the diagonal) and hands it to `nn.MultiheadAttention(batch_first=True)` as `attn_mask`, with no key padding mask
# why: correct for the rule classes: a boolean `attn_mask` of nn.MultiheadAttention is True where attention is NOT allowed, so the strict upper triangle blocks the future and keeps the diagonal; no row is emptied (every query keeps its own position even with left padding, since no padding mask is combined in); the padded positions are zeroed after every block, the recommender's own way of ignoring them
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/cccchensy/SASRecProject https://github.com/cccchensy/SASRecProject/commit/e424edfd4fbc0d5c1bb90b0e936249b3f9e65eca sasrec_model.py
import torch
import torch.nn as nn


class FeedForward(nn.Module):
    def __init__(self, units, p):
        super().__init__()
        self.conv1 = nn.Conv1d(units, units, kernel_size=1)
        self.conv2 = nn.Conv1d(units, units, kernel_size=1)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        h = self.drop(torch.relu(self.conv1(x.transpose(-1, -2))))
        return self.drop(self.conv2(h)).transpose(-1, -2) + x


class Block(nn.Module):
    def __init__(self, units, heads, p):
        super().__init__()
        self.attn = nn.MultiheadAttention(embed_dim=units, num_heads=heads, dropout=p, batch_first=True)
        self.norm1 = nn.LayerNorm(units, eps=1e-8)
        self.ffn = FeedForward(units, p)
        self.norm2 = nn.LayerNorm(units, eps=1e-8)

    def forward(self, h, future):
        # the mask hides the future; padded steps are handled by the model
        out, _ = self.attn(query=h, key=h, value=h, attn_mask=future, need_weights=False)
        h = self.norm1(h + out)
        return self.norm2(h + self.ffn(h))


class NextItemModel(nn.Module):
    def __init__(self, n_items, max_len, units, heads, depth, p, device):
        super().__init__()
        self.device = device
        self.items = nn.Embedding(n_items + 1, units, padding_idx=0)
        self.positions = nn.Embedding(max_len, units)
        self.drop = nn.Dropout(p)
        self.blocks = nn.ModuleList([Block(units, heads, p) for _ in range(depth)])

    def forward(self, history):
        # history: (batch, max_len), 0 where there is no item
        is_pad = history == 0
        L = history.shape[1]
        pos = torch.arange(L, dtype=torch.long, device=self.device).unsqueeze(0).expand_as(history)
        h = self.items(history) + self.positions(pos)
        h = h * (~is_pad.unsqueeze(-1)).float()
        h = self.drop(h)

        # True above the diagonal: step t may not look at steps after t
        future = torch.triu(torch.ones((L, L), dtype=torch.bool, device=self.device), diagonal=1)

        for block in self.blocks:
            h = block(h, future)
            h = h * (~is_pad.unsqueeze(-1)).float()
        return h
