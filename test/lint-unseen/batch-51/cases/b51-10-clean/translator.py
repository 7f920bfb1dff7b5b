import random

import torch
import torch.nn as nn

from additive import AdditiveAttention
from batching import PAD_IDX


class BiGRUEncoder(nn.Module):
    def __init__(self, vocab, emb, hid, layers=1, p=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb, hid, num_layers=layers, bidirectional=True, dropout=p if layers > 1 else 0)
        self.bridge = nn.Linear(2 * hid, hid)
        self.drop = nn.Dropout(p)

    def forward(self, src):
        states, last = self.rnn(self.drop(self.embed(src)))  # states: (src_len, batch, 2 * hid)
        return states, torch.tanh(self.bridge(torch.cat([last[-2], last[-1]], dim=-1)))


class StepDecoder(nn.Module):
    def __init__(self, vocab, emb, enc_width, hid, p=0.1):
        super().__init__()
        self.attend = AdditiveAttention(enc_width, hid)
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb + enc_width, hid)
        self.out = nn.Linear(hid + enc_width + emb, vocab)
        self.drop = nn.Dropout(p)

    def forward(self, token, state, memory, pad):
        e = self.drop(self.embed(token[None]))  # (1, batch, emb)
        context, weights = self.attend(state, memory, pad)
        y, h = self.rnn(torch.cat([e, context[None]], dim=-1), state[None])
        logits = self.out(torch.cat([y[0], context, e[0]], dim=-1))
        return logits, h[0], weights


class Translator(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder

    def forward(self, src, tgt, teacher_forcing=0.5):
        pad = src == PAD_IDX  # (src_len, batch)
        memory, state = self.encoder(src)
        token, outputs = tgt[0], []
        for t in range(1, tgt.shape[0]):
            logits, state, _ = self.decoder(token, state, memory, pad)
            outputs.append(logits)
            token = tgt[t] if random.random() < teacher_forcing else logits.argmax(-1)
        return torch.stack(outputs)
