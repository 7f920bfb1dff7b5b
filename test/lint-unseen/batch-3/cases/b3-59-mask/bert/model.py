"""A BERT encoder stack on the shared transformer attention."""
from copy import deepcopy

import torch.nn as nn

from bert.embedding import InputEmbedding
from transformer.attention import MultiHeadProjection, ScaledDotProductAttention


class EncoderLayer(nn.Module):
    def __init__(self, d_model, d_ff, n_head, dropout_p):
        super().__init__()
        self.proj = MultiHeadProjection(d_model, n_head)
        self.sdp = ScaledDotProductAttention(d_model, n_head)
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.drop = nn.Dropout(dropout_p)

    def forward(self, emb, mask):
        q, k, v = self.proj(emb)
        h = self.norm1(emb + self.drop(self.sdp(q, k, v, mask=mask)))
        return self.norm2(h + self.drop(self.ffn(h)))


class BERT(nn.Module):
    def __init__(self, vocab_size, seq_length, pad_id, d_model, d_ff, n_head, dropout_p, n_layers):
        super().__init__()
        self.embedder = InputEmbedding(vocab_size, seq_length, d_model, pad_id)
        layer = EncoderLayer(d_model, d_ff, n_head, dropout_p)
        self.layers = nn.ModuleList([deepcopy(layer) for _ in range(n_layers)])

    def forward(self, txt, seg):
        x = self.embedder(txt, seg)
        mask = self.embedder.generate_enc_mask(txt)
        for layer in self.layers:
            x = layer(x, mask)
        return x
