import torch
from torch import nn

from batching import collate_padded
from windowed import HeadsAttention, WindowedAttention


class Encoder(nn.Module):
    def __init__(self, width: int, n_heads: int, ff: int, p: float, windowed: bool, radius: int):
        super().__init__()
        self.attn = WindowedAttention(width, n_heads, radius, p) if windowed else HeadsAttention(width, n_heads, p)
        self.n1, self.n2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, ff), nn.ReLU(), nn.Dropout(p), nn.Linear(ff, width))
        self.drop = nn.Dropout(p)

    def forward(self, x, keep):
        x = self.n1(x + self.drop(self.attn(x, keep)))
        return self.n2(x + self.drop(self.ff(x)))


class HeadlineClassifier(nn.Module):
    def __init__(self, vocab: int, n_classes: int, width: int = 128, windowed: bool = True, radius: int = 8, pad_id: int = 0):
        super().__init__()
        self.embed = nn.Embedding(vocab, width, padding_idx=pad_id)
        self.blocks = nn.ModuleList([Encoder(width, 4, 256, 0.1, windowed, radius) for _ in range(2)])
        self.head = nn.Linear(width, n_classes)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids)
        for blk in self.blocks:
            h = blk(h, attention_mask)
        w = attention_mask.unsqueeze(-1).float()
        pooled = (h * w).sum(1) / w.sum(1).clamp(min=1.0)
        return self.head(pooled)


def train_step(model, optimiser, items, pad_id: int = 0, width: int = 128):
    batch = collate_padded(items, pad_id, width)
    logits = model(batch["input_ids"], batch["attention_mask"])
    loss = nn.functional.cross_entropy(logits, batch["labels"])
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return loss.item()
