import torch
import torch.nn as nn

from layers import FeedForward, MultiHeadSelfAttention, build_mask


class EncoderLayer(nn.Module):
    def __init__(self, hidden_dim, num_head, inner_dim, dropout=0.1):
        super().__init__()
        self.attn = MultiHeadSelfAttention(hidden_dim, num_head, dropout)
        self.ffn = FeedForward(hidden_dim, inner_dim, dropout)
        self.ln1 = nn.LayerNorm(hidden_dim)
        self.ln2 = nn.LayerNorm(hidden_dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        x = self.ln1(x + self.drop(self.attn(x, x, x, mask)))
        return self.ln2(x + self.drop(self.ffn(x)))


class Bert4Rec(nn.Module):
    def __init__(self, n_items, n_layers=2, max_len=200, hidden_dim=256, num_head=4, inner_dim=1024):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 2, hidden_dim, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, hidden_dim)
        self.layers = nn.ModuleList([EncoderLayer(hidden_dim, num_head, inner_dim) for _ in range(n_layers)])
        self.out = nn.Linear(hidden_dim, n_items + 1)

    def forward(self, items):
        mask = build_mask(items, option="padding").to(items.device)
        pos = torch.arange(items.size(1), device=items.device).unsqueeze(0)
        x = self.item_emb(items) + self.pos_emb(pos)
        for layer in self.layers:
            x = layer(x, mask)
        return self.out(x)
