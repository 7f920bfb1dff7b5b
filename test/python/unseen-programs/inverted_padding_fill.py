# label: buggy
# why: attention_mask is 1 on real tokens, and masked_fill hides where it is 1: real tokens are masked and only padding is attended
import math

import torch
import torch.nn as nn

PAD_ID = 0


class EncoderLayer(nn.Module):
    def __init__(self, d_model=48, n_heads=3):
        super().__init__()
        self.h = n_heads
        self.dk = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.dk).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.dk).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dk)
        scores = scores.masked_fill(attention_mask[:, None, None, :].bool(), -1e9)  # expect: ATT002
        probs = torch.softmax(scores, dim=-1)
        ctx = (probs @ v).transpose(1, 2).reshape(B, T, D)
        x = x + ctx
        return x + self.ff(x)


if __name__ == "__main__":
    torch.manual_seed(13)
    batch = [[101, 7592, 2088, 102], [101, 2023, 2003, 1037, 3231, 102], [101, 2748, 102]]
    longest = max(len(s) for s in batch) + 1
    input_ids = torch.tensor([s + [PAD_ID] * (longest - len(s)) for s in batch])
    attention_mask = (input_ids != PAD_ID).long()
    embed = nn.Embedding(30522, 48, padding_idx=PAD_ID)
    layer = EncoderLayer()
    with torch.no_grad():
        hidden = layer(embed(input_ids), attention_mask)
    print(hidden.shape)
