# case: b44-06-clean
# modelled-on: 53X/ATAE_LSTM https://github.com/53X/ATAE_LSTM/commit/307125419b9c76804f6acbec4dca14ac25379e36
# label: correct
# class: clean
# pattern: attention-based LSTM for aspect-level sentiment (ATAE-LSTM): a soft-attention module scores every time step of the (batch, time, features) LSTM outputs with a (features, 1) vector, normalises the (batch, time, 1) scores with softmax(dim=1) and returns the weighted sum over time; a time-major branch first moves the batch axis to the front; the model concatenates the aspect embedding to the hidden states before scoring
# why: correct: the scores are (batch, time, 1) and softmax(dim=1) normalises over the time steps (the last axis has length one and would give weights of 1); the time-major input is reordered to batch-major before the same softmax; additive/content attention of this kind has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003
# source: https://github.com/53X/ATAE_LSTM https://github.com/53X/ATAE_LSTM/commit/307125419b9c76804f6acbec4dca14ac25379e36 attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftAttention(nn.Module):
    """Weights the time steps of a sequence and returns their weighted sum."""

    def __init__(self, feat_dim: int, batch_first: bool = True):
        super().__init__()
        self.batch_first = batch_first
        self.score = nn.Parameter(torch.empty(feat_dim, 1))
        nn.init.xavier_uniform_(self.score)

    def forward(self, states: torch.Tensor, values: torch.Tensor = None) -> torch.Tensor:
        if not self.batch_first:
            states = states.permute(1, 0, 2)  # (time, batch, feat) -> (batch, time, feat)
            if values is not None:
                values = values.permute(1, 0, 2)
        energy = states @ self.score                # (batch, time, 1)
        alpha = F.softmax(energy, dim=1)             # over the time steps
        pooled = (alpha * (states if values is None else values)).sum(dim=1, keepdim=True)
        return pooled                                # (batch, 1, feat)


class AspectLSTM(nn.Module):
    def __init__(self, vocab: int, n_aspects: int, emb: int = 300, hidden: int = 300, classes: int = 3):
        super().__init__()
        self.words = nn.Embedding(vocab, emb)
        self.aspects = nn.Embedding(n_aspects, emb)
        self.rnn = nn.LSTM(2 * emb, hidden, batch_first=True)
        self.proj_h = nn.Linear(hidden, hidden, bias=False)
        self.proj_a = nn.Linear(emb, emb, bias=False)
        self.attend = SoftAttention(hidden + emb)
        self.out = nn.Linear(hidden, classes)

    def forward(self, tokens: torch.Tensor, aspect: torch.Tensor) -> torch.Tensor:
        a = self.aspects(aspect)[:, None, :].expand(-1, tokens.size(1), -1)
        h, (h_last, _) = self.rnn(torch.cat([self.words(tokens), a], dim=-1))
        m = torch.tanh(torch.cat([self.proj_h(h), self.proj_a(a)], dim=-1))
        r = self.attend(m, values=h).squeeze(1)
        return self.out(torch.tanh(r + h_last[-1]))
