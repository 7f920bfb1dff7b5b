# case: b44-03-clean
# modelled-on: Asjad-Ilahi/danAI-55M https://github.com/Asjad-Ilahi/danAI-55M/commit/3aa392f0232ec8523b062b1cadce88bcab823fad
# label: correct
# class: clean
# pattern: pre-training on packed rows (a folder: the packing module that builds a block-diagonal causal mask from document segment ids in the collate function, and the decoder layers that receive it): the boolean mask (True = same document and j <= i) reaches the attention, which turns it into an additive bias with zeros_like(...).masked_fill(~mask, -inf) and passes it to F.scaled_dot_product_attention with is_causal=False; without a mask the attention falls back on is_causal=True (no cache during training)
# why: correct: the collate mask is a keep mask (same-document & tril), inverted with ~ before the -inf fill, so the bias is 0 where a query may attend and -inf across documents and in the future; the diagonal is always kept, so no row is all -inf; is_causal=False is right because the bias already carries the causal triangle; queries and keys have the same length (no cache), so the fallback is_causal=True is aligned
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Asjad-Ilahi/danAI-55M https://github.com/Asjad-Ilahi/danAI-55M/commit/3aa392f0232ec8523b062b1cadce88bcab823fad src/data/packing.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from packing import collate


class PackedSelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, attn_dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.attn_dropout = attn_dropout

    def forward(self, x: torch.Tensor, keep: torch.Tensor = None) -> torch.Tensor:
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        drop = self.attn_dropout if self.training else 0.0
        if keep is None:
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=drop, is_causal=True)
        else:
            if keep.dtype == torch.bool:
                bias = torch.zeros_like(keep, dtype=q.dtype)
                bias.masked_fill_(~keep, float("-inf"))
            else:
                bias = keep
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, dropout_p=drop, is_causal=False)
        return self.proj(y.transpose(1, 2).reshape(b, s, d))


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = PackedSelfAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, keep=None):
        x = x + self.attn(self.ln1(x), keep)
        return x + self.mlp(self.ln2(x))


class PackedLM(nn.Module):
    def __init__(self, vocab: int, d_model: int, n_heads: int, n_layers: int):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model, n_heads) for _ in range(n_layers))
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, input_ids, attention_mask=None):
        h = self.tok(input_ids)
        for layer in self.layers:
            h = layer(h, attention_mask)
        return self.lm_head(h)


def step(model, batch, optimizer):
    logits = model(batch["input_ids"], attention_mask=batch["attention_mask"])
    loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), batch["input_ids"][:, 1:].flatten())
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()


def train(model, rows, optimizer, batch_size: int = 8):
    loader = DataLoader(rows, batch_size=batch_size, shuffle=True, collate_fn=collate)
    for batch in loader:
        step(model, batch, optimizer)
