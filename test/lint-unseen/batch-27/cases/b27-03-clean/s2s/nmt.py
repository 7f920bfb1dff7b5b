# case: b27-03-clean
# modelled-on: thanhdatuetk62/seq2seq_system https://github.com/thanhdatuetk62/seq2seq_system/commit/e53f2f66972df901e29cc8f23eaeff2171f5a351
# label: correct
# class: clean
# pattern: a research seq2seq system's Transformer translator built on nn.Transformer (sequence-first, so batch-first embeddings are transposed in and out); the causal target mask comes from a helper in another module that writes (torch.triu(torch.ones(n, n, dtype=int)) == 0).transpose(0, 1), and is passed as tgt_mask in training, validation and in the one-step decoder call used by beam search, where the whole prefix is re-decoded at every step and the softmax over the vocabulary picks the last position
# why: correct: triu(ones) is 1 on and above the diagonal, so == 0 is True strictly below it, and the transpose moves that to strictly above it: True exactly on future positions, which is what a boolean tgt_mask of nn.Transformer means (True = not allowed); the diagonal stays attendable; no cache is kept (the prefix is re-run), so the square mask always matches the query and key lengths; the softmax at the end is over the vocabulary, not attention
# looks-like: ATT002, ATT008
# source: https://github.com/thanhdatuetk62/seq2seq_system https://github.com/thanhdatuetk62/seq2seq_system/commit/e53f2f66972df901e29cc8f23eaeff2171f5a351 bin/models/transformer_nmt.py
import math

import torch
from torch import nn
from torch.nn import functional as F

from s2s.masks import subsequent_mask


class SinusoidalPositions(nn.Module):
    def __init__(self, d_model=512, max_len=300, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pe = torch.zeros(max_len, d_model)
        rows = torch.arange(max_len).unsqueeze(1)
        cols = torch.exp(-math.log(10000.0) / d_model * torch.arange(0, d_model, 2))
        pe[:, 0::2] = torch.sin(rows * cols)
        pe[:, 1::2] = torch.cos(rows * cols)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.dropout(x + self.pe[:, :x.size(1)])


class TransformerTranslator(nn.Module):
    def __init__(self, src_vocab, trg_vocab, d_model=512, nhead=8, layers=6, dim_ff=2048, dropout=0.1, device="cpu"):
        super().__init__()
        self.device = device
        self.trg_vocab = trg_vocab
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.trg_embed = nn.Embedding(trg_vocab, d_model)
        self.pe = SinusoidalPositions(d_model, dropout=dropout)
        self.transformer = nn.Transformer(d_model=d_model, nhead=nhead, num_encoder_layers=layers,
                                          num_decoder_layers=layers, dim_feedforward=dim_ff, dropout=dropout)
        self.out = nn.Linear(d_model, trg_vocab)

    def forward(self, src, trg, trg_mask=None):
        src = self.pe(self.src_embed(src))
        trg = self.pe(self.trg_embed(trg))
        hidden = self.transformer(src.transpose(0, 1), trg.transpose(0, 1), tgt_mask=trg_mask).transpose(0, 1)
        return self.out(hidden)

    def encode(self, src):
        src = self.pe(self.src_embed(src))
        return self.transformer.encoder(src.transpose(0, 1)).transpose(0, 1)

    def loss(self, src, trg, criterion):
        trg_mask = subsequent_mask(trg.size(1) - 1, self.device)
        logits = self(src, trg[:, :-1], trg_mask=trg_mask)
        return criterion(logits.reshape(-1, self.trg_vocab), trg[:, 1:].reshape(-1))

    @torch.no_grad()
    def next_token_probs(self, trg, memory):
        n, t = trg.size()
        trg = self.pe(self.trg_embed(trg))
        trg_mask = subsequent_mask(t, self.device)
        hidden = self.transformer.decoder(trg.transpose(0, 1), memory.transpose(0, 1), tgt_mask=trg_mask).transpose(0, 1)
        probs = F.softmax(self.out(hidden), dim=-1)  # (n, t, vocab)
        return probs[:, -1, :]
