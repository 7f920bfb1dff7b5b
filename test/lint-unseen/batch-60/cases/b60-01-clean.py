# case: b60-01-clean
# modelled-on: kshitizxzz/Transformer-Summarizer https://github.com/kshitizxzz/Transformer-Summarizer/commit/b87698dfc8d118d1553b3ca45a13321ac0d4c917
# label: correct
# class: clean
# pattern: the recurrent baseline of a summarisation project: a bidirectional LSTM encoder and an LSTM decoder with Bahdanau (additive) attention, v^T tanh(W h + U s), over the encoder states; the source mask is `src != pad_id` (True = real token) and the scores are filled with -inf where `~src_mask`; the softmax runs over dim=-1 of a (batch, src_len) tensor; teacher forcing with a ratio
# why: correct: additive attention has no 1/sqrt(d) factor by design (the score passes through tanh and a learned vector); the mask is True on real tokens, so `~src_mask` selects exactly the padding; every source has at least one real token, so no row is all -inf; the last axis of (batch, src_len) is the source axis the weights must sum over
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/kshitizxzz/Transformer-Summarizer https://github.com/kshitizxzz/Transformer-Summarizer/commit/b87698dfc8d118d1553b3ca45a13321ac0d4c917 src/models/bilstm_bahdanau.py
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class RecurrentConfig:
    vocab_size: int
    embed_dim: int = 128
    hidden_dim: int = 256   # per direction; the decoder works in 2 * hidden_dim
    encoder_layers: int = 2
    dropout: float = 0.3
    pad_id: int = 0


class AdditiveAttention(nn.Module):
    """score(s, h) = v^T tanh(W h + U s); weights = softmax over source positions."""

    def __init__(self, enc_dim: int, dec_dim: int, attn_dim: int) -> None:
        super().__init__()
        self.keys, self.query = nn.Linear(enc_dim, attn_dim, bias=False), nn.Linear(dec_dim, attn_dim, bias=False)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, state, enc_out, src_mask=None):
        energy = self.v(torch.tanh(self.keys(enc_out) + self.query(state).unsqueeze(1))).squeeze(-1)
        if src_mask is not None:
            energy = energy.masked_fill(~src_mask, float("-inf"))
        alpha = F.softmax(energy, dim=-1)                        # (batch, src_len)
        return torch.bmm(alpha.unsqueeze(1), enc_out).squeeze(1), alpha


class RecurrentSummariser(nn.Module):
    def __init__(self, cfg: RecurrentConfig) -> None:
        super().__init__()
        self.cfg = cfg
        two_h = 2 * cfg.hidden_dim
        self.src_embed = nn.Embedding(cfg.vocab_size, cfg.embed_dim, padding_idx=cfg.pad_id)
        self.encoder = nn.LSTM(cfg.embed_dim, cfg.hidden_dim, num_layers=cfg.encoder_layers, batch_first=True,
                               bidirectional=True, dropout=cfg.dropout if cfg.encoder_layers > 1 else 0.0)
        self.bridge = nn.ModuleDict({"h": nn.Linear(two_h, two_h), "c": nn.Linear(two_h, two_h)})
        self.tgt_embed = nn.Embedding(cfg.vocab_size, cfg.embed_dim, padding_idx=cfg.pad_id)
        self.attn = AdditiveAttention(two_h, two_h, two_h)
        self.decoder = nn.LSTM(cfg.embed_dim + two_h, two_h, batch_first=True)
        self.out = nn.Linear(2 * two_h + cfg.embed_dim, cfg.vocab_size)
        self.drop = nn.Dropout(cfg.dropout)

    def encode(self, src):
        enc_out, (h, c) = self.encoder(self.drop(self.src_embed(src)))
        # last layer, both directions, projected to the decoder size
        state = tuple(torch.tanh(self.bridge[k](torch.cat([t[-2], t[-1]], dim=-1))).unsqueeze(0)
                      for k, t in (("h", h), ("c", c)))
        return enc_out, state

    def step(self, token, state, enc_out, src_mask):
        emb = self.drop(self.tgt_embed(token.unsqueeze(1)))
        context, alpha = self.attn(state[0][-1], enc_out, src_mask)
        dec_out, state = self.decoder(torch.cat([emb, context.unsqueeze(1)], dim=-1), state)
        feats = torch.cat([dec_out.squeeze(1), context, emb.squeeze(1)], dim=-1)
        return self.out(self.drop(feats)), state, alpha

    def forward(self, src, tgt, teacher_forcing_ratio=0.5):
        src_mask = src != self.cfg.pad_id                       # True on real source tokens
        enc_out, state = self.encode(src)
        token, steps = tgt[:, 0], []
        for t in range(1, tgt.size(1)):
            logits, state, _ = self.step(token, state, enc_out, src_mask)
            steps.append(logits)
            token = tgt[:, t] if random.random() < teacher_forcing_ratio else logits.argmax(-1)
        return torch.stack(steps, dim=1)
