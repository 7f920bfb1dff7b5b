# case: b4-31-clean
# modelled-on: LEEYOONHYUNG/transformer-pytorch https://github.com/LEEYOONHYUNG/transformer-pytorch/commit/f58cfd15e6642b4fa9af1d7b40f45470162b09c7
# label: correct
# class: clean
# pattern: the RNN baseline beside a transformer: a GRU decoder's concat attention scores every encoder position with a Linear over [input, hidden, context] to a (batch, max_len, 1) tensor, writes -INF (INF = float('inf')) past each sequence's length by index assignment, takes the softmax over dim=1 and sums the weighted encoder states over dim=1
# why: correct: the scores have a trailing singleton axis, so dim=1 is the encoder-position (key) axis; the padded positions past each length get -inf, and every row keeps at least its first position (lengths are at least 1)
# looks-like: ATT001, ATT003, ATT007
# source: https://github.com/LEEYOONHYUNG/transformer-pytorch https://github.com/LEEYOONHYUNG/transformer-pytorch/commit/f58cfd15e6642b4fa9af1d7b40f45470162b09c7 RNN.py
import torch
import torch.nn as nn
import torch.nn.functional as F

INF = float("inf")


class ConcatAttention(nn.Module):
    def __init__(self, embedding_dim, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.scoring = nn.Linear(embedding_dim + 3 * hidden_dim, 1)

    def forward(self, context, x, h):
        # context: (B, max_len, 2h) from a bidirectional GRU; x: (B, 1, E); h: (1, B, h)
        h = h.view(-1, 1, self.hidden_dim)  # (B, 1, h)
        inputs = torch.cat([x, h], dim=-1).repeat(1, context.size(1), 1)  # (B, max_len, E + h)
        scores = self.scoring(torch.cat([inputs, context], dim=-1))  # (B, max_len, 1)
        lengths = torch.sum((context != 0)[:, :, 0], dim=-1).tolist()
        for i, n in enumerate(lengths):
            scores[i, n:] = -INF
        alpha = F.softmax(scores, dim=1)  # (B, max_len, 1)
        return torch.sum(alpha * context, dim=1).unsqueeze(1)  # (B, 1, 2h)


class AttnGRUDecoder(nn.Module):
    def __init__(self, hidden_dim, vocab, embedding_dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, embedding_dim)
        self.gru = nn.GRU(embedding_dim + 2 * hidden_dim, hidden_dim, 1, batch_first=True)
        self.attention = ConcatAttention(embedding_dim, hidden_dim)
        self.to_word = nn.Linear(hidden_dim, vocab)
        self.hidden_dim = hidden_dim

    def forward(self, x, context):
        h = x.new_zeros(1, x.size(0), self.hidden_dim).float()
        outs = []
        for t in range(x.size(1)):
            emb = self.embed(x[:, t : t + 1])
            ctx = self.attention(context, emb, h[0:1])
            out, h = self.gru(torch.cat([emb, ctx], dim=-1), h)
            outs.append(self.to_word(out))
        return torch.cat(outs, dim=1)
