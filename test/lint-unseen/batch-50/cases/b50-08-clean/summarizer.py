import torch
import torch.nn as nn

from additive import AdditiveAttention


class BiEncoder(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, bidirectional=True, batch_first=True)
        self.bridge = nn.Linear(2 * hidden, hidden)

    def forward(self, src):
        outs, (h, _) = self.rnn(self.emb(src))
        last = torch.tanh(self.bridge(torch.cat((h[-2], h[-1]), dim=1)))
        return self.bridge(outs), last  # (batch, src_len, hidden), (batch, hidden)


class AttnDecoderStep(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb + hidden, hidden, batch_first=True)
        self.out = nn.Linear(2 * hidden, vocab)

    def forward(self, token, state, enc_out, weights):
        ctx = torch.bmm(weights, enc_out)  # (batch, 1, src_len) x (batch, src_len, hidden)
        x = torch.cat((self.emb(token.unsqueeze(1)), ctx), dim=2)
        y, (h, _) = self.rnn(x, (state.unsqueeze(0), torch.zeros_like(state).unsqueeze(0)))
        logits = self.out(torch.cat((y.squeeze(1), ctx.squeeze(1)), dim=1))
        return logits, h.squeeze(0)


class Summarizer(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.encoder = BiEncoder(vocab, emb, hidden)
        self.attend = AdditiveAttention(hidden)
        self.step = AttnDecoderStep(vocab, emb, hidden)

    def forward(self, src, tgt):
        enc_out, state = self.encoder(src)
        logits = []
        for t in range(tgt.size(1)):
            w = self.attend(state, enc_out)
            out, state = self.step(tgt[:, t], state, enc_out, w)
            logits.append(out)
        return torch.stack(logits, dim=1)
