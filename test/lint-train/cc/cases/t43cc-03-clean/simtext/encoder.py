# case: t43cc-03-clean
# modelled-on: lizhenping/multi-head-self-attention https://github.com/lizhenping/multi-head-self-attention/commit/98913b1f0714aa624f7b078fd783b28b74dbadc7
# label: correct
# class: clean
# pattern: a text-similarity model (two texts, shared encoder, cosine similarity): the dataset module builds each text's mask as `(ids != pad_idx).long()` and a collate function stacks them; the encoder turns the (B, S) mask into (B, 1, 1, S) with `unsqueeze(1).unsqueeze(2).float()` and hands it to every attention block; the attention module (another file) fills `mask == 0` in place (`masked_fill_`) with -inf before the softmax; mean pooling multiplies by the same mask and max pooling fills `mask == 0` with -1e9
# why: correct: the mask is 1 at real tokens (`ids != pad`), so `mask == 0` is the padding, also after the float conversion (a float 1.0/0.0 compared with 0); the in-place `masked_fill_` changes the scores the softmax reads; the -1e9 fill in max pooling is no attention fill; a row is fully -inf only for a text with no token at all (the repository's trainer, reduced here to `train_step`, feeds sentence pairs)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/lizhenping/multi-head-self-attention https://github.com/lizhenping/multi-head-self-attention/commit/98913b1f0714aa624f7b078fd783b28b74dbadc7 src/models/similarity_model.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from .attention import MultiHeadAttention


class AttentionBlock(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        self.attention = MultiHeadAttention(embed_dim, num_heads, dropout)
        self.norm1 = nn.LayerNorm(embed_dim)
        self.ffn = nn.Sequential(nn.Linear(embed_dim, 4 * embed_dim), nn.ReLU(), nn.Linear(4 * embed_dim, embed_dim))
        self.norm2 = nn.LayerNorm(embed_dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        x = self.norm1(x + self.drop(self.attention(x, x, x, mask)))
        return self.norm2(x + self.drop(self.ffn(x)))


class TextEncoder(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_heads, num_layers=2, max_len=64, dropout=0.1):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.positions = nn.Embedding(max_len, embed_dim)
        self.layers = nn.ModuleList([AttentionBlock(embed_dim, num_heads, dropout) for _ in range(num_layers)])
        self.final_norm = nn.LayerNorm(embed_dim)

    def forward(self, input_ids, attention_mask: Optional[torch.Tensor] = None):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.embedding(input_ids) + self.positions(pos)
        if attention_mask is not None:
            # [B, S] -> [B, 1, 1, S]
            attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)
            attention_mask = attention_mask.float()
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.final_norm(x)


class SimilarityModel(nn.Module):
    def __init__(self, vocab_size, embed_dim=256, num_heads=8, pooling='mean'):
        super().__init__()
        self.encoder = TextEncoder(vocab_size, embed_dim, num_heads)
        self.pooling = pooling
        self.head = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.Tanh())

    def pool(self, seq, attention_mask=None):
        if attention_mask is None:
            return seq.mean(dim=1)
        m = attention_mask.unsqueeze(-1).expand(seq.size())
        if self.pooling == 'max':
            return seq.masked_fill(m == 0, -1e9).max(dim=1)[0]
        return (seq * m).sum(dim=1) / torch.clamp(m.sum(dim=1), min=1e-9)

    def encode(self, ids, attention_mask=None):
        return self.head(self.pool(self.encoder(ids, attention_mask), attention_mask))

    def forward(self, ids_a, ids_b, mask_a=None, mask_b=None):
        return F.cosine_similarity(self.encode(ids_a, mask_a), self.encode(ids_b, mask_b), dim=1)


def train_step(model, batch, optimizer):
    sim = model(batch['input_ids_a'], batch['input_ids_b'], batch['attention_mask_a'], batch['attention_mask_b'])
    loss = F.mse_loss(sim, batch['label'])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
