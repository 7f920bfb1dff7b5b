# case: b19-06-clean
# modelled-on: yuohan/nlp-attention-pytorch https://github.com/yuohan/nlp-attention-pytorch/commit/1286ce2fb9b7461d4b71e84e247cee9cebff0416
# label: correct
# class: clean
# pattern: a sequence-first GRU encoder-decoder for translation with selectable attention scores (additive, dot, general, concat): every score function returns (input_length, batch) scores from the decoder state (batch, hidden) and the encoder outputs (input_length, batch, hidden); the attention transposes the scores with score.t() and applies F.softmax(..., dim=1), then forms the context with torch.bmm(align.unsqueeze(1), encoder_outputs.transpose(0, 1)); dot and general scores carry no scale
# why: correct: after .t() the scores are (batch, input_length), so dim=1 normalises over the source positions of each sentence; transpose(0, 1) of the encoder outputs is the sequence-first to batch-first switch, giving (batch, 1, len) @ (batch, len, hidden); Luong's dot and general scores are unscaled by design
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/yuohan/nlp-attention-pytorch https://github.com/yuohan/nlp-attention-pytorch/commit/1286ce2fb9b7461d4b71e84e247cee9cebff0416 seq2seq.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, embed, hidden, layers, bidirectional=True):
        super().__init__()
        self.hidden, self.layers, self.bidirectional = hidden, layers, bidirectional
        self.embedding = nn.Embedding(vocab, embed)
        self.rnn = nn.GRU(embed, hidden, layers, bidirectional=bidirectional)

    def forward(self, tokens):  # (len, batch)
        out, h = self.rnn(self.embedding(tokens))
        if self.bidirectional:
            out = out[:, :, : self.hidden] + out[:, :, self.hidden :]
            h = h[: self.layers]
        return out, h


class Attention(nn.Module):
    def __init__(self, kind, hidden, attn):
        super().__init__()
        if kind == "additive":
            self.wq, self.wk, self.v = nn.Linear(hidden, attn), nn.Linear(hidden, attn), nn.Linear(attn, 1)
            self.score = self.additive
        elif kind == "dot":
            self.score = self.dot
        elif kind == "general":
            self.w = nn.Linear(hidden, hidden)
            self.score = self.general
        elif kind == "concat":
            self.w, self.v = nn.Linear(hidden * 2, attn), nn.Linear(attn, 1)
            self.score = self.concat
        else:
            raise NotImplementedError(kind)

    # query (batch, hidden); values (len, batch, hidden); each returns (len, batch)
    def additive(self, query, values):
        return self.v(torch.tanh(self.wq(query.unsqueeze(0)) + self.wk(values))).squeeze(2)

    def dot(self, query, values):
        return torch.sum(query * values, dim=2)

    def general(self, query, values):
        return torch.sum(query * self.w(values), dim=2)

    def concat(self, query, values):
        query = query.expand(values.size(0), -1, -1)
        return self.v(torch.tanh(self.w(torch.cat((query, values), dim=2)))).squeeze(2)

    def forward(self, state, enc_out):
        score = self.score(state, enc_out)  # (len, batch)
        align = F.softmax(score.t(), dim=1)  # (batch, len)
        context = torch.bmm(align.unsqueeze(1), enc_out.transpose(0, 1))  # (batch, 1, hidden)
        return context, align


class BahdanauDecoder(nn.Module):
    def __init__(self, kind, vocab, embed, hidden, attn):
        super().__init__()
        self.embedding = nn.Embedding(vocab, embed)
        self.rnn = nn.GRU(embed + hidden, hidden)
        self.attention = Attention(kind, hidden, attn)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, token, h, enc_out):  # token (1, batch)
        emb = self.embedding(token)
        context, align = self.attention(h[-1], enc_out)
        out, h = self.rnn(torch.cat((context.transpose(0, 1), emb), dim=2))
        return F.log_softmax(self.out(out.squeeze(0)), dim=1), h, align
