# case: b46-04-clean
# modelled-on: takumi0shibata/DVRL https://github.com/takumi0shibata/DVRL/commit/49cda212499919f44d87b98e4972b042fae132ee
# label: correct
# class: clean
# pattern: hierarchical essay scorer (PAES-style): a convolution over the part-of-speech embeddings of each sentence, word-level soft attention that scores every position with tanh(W h) then a (hidden, 1) vector, squeezes the scores to (batch, positions) and normalises them with softmax(dim=1), a sentence LSTM over the pooled sentences and the same soft attention over the sentences; the essay vector is concatenated with hand-made features and squashed to a score
# why: correct: after squeeze(-1) the scores are (batch, positions), so softmax(dim=1) normalises over the positions (words, then sentences) of each essay, not over the batch; the weights are unsqueezed back and broadcast over the features before the weighted sum over dim 1; additive (tanh) attention has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003
# source: https://github.com/takumi0shibata/DVRL https://github.com/takumi0shibata/DVRL/commit/49cda212499919f44d87b98e4972b042fae132ee models/paes.py
import torch
from torch import nn


class AdditivePool(nn.Module):
    """Weighted sum over the positions of a (batch, positions, dim) tensor."""

    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        energy = self.score(torch.tanh(self.proj(seq))).squeeze(-1)  # (batch, positions)
        alpha = torch.softmax(energy, dim=1)
        alpha = alpha.unsqueeze(-1).expand(-1, -1, seq.size(2))
        return (seq * alpha).sum(dim=1)


class EssayScorer(nn.Module):
    def __init__(
        self,
        n_sents: int,
        sent_len: int,
        n_ling: int,
        n_read: int,
        pos_vocab_size: int,
        emb: int = 50,
        filters: int = 100,
        kernel: int = 5,
        hidden: int = 100,
        p: float = 0.5,
    ):
        super().__init__()
        self.n_sents, self.sent_len, self.emb, self.filters = n_sents, sent_len, emb, filters
        self.embed = nn.Embedding(pos_vocab_size, emb, padding_idx=0)
        self.drop = nn.Dropout(p)
        self.conv = nn.Conv1d(emb, filters, kernel_size=kernel)
        self.word_pool = AdditivePool(filters)
        self.sent_rnn = nn.LSTM(filters, hidden, batch_first=True)
        self.sent_pool = AdditivePool(hidden)
        self.out = nn.Linear(hidden + n_ling + n_read, 1)

    def forward(self, pos_ids, ling_feats, read_feats):
        x = self.drop(self.embed(pos_ids))
        x = x.view(-1, self.sent_len, self.emb)          # (batch * n_sents, sent_len, emb)
        conv = self.conv(x.transpose(1, 2)).transpose(1, 2)
        sents = self.word_pool(conv).view(-1, self.n_sents, self.filters)
        states, _ = self.sent_rnn(sents)
        essay = self.sent_pool(states)
        essay = torch.cat([essay, ling_feats, read_feats], dim=1)
        return torch.sigmoid(self.out(essay))
