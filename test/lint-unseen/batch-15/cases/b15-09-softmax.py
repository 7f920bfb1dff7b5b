# case: b15-09-softmax
# modelled-on: xhuang31/KEQA_WSDM19 https://github.com/xhuang31/KEQA_WSDM19/commit/f923a15cc732e8844c26e4c653c306c90e067734
# label: buggy
# class: real-bug
# pattern: a knowledge-graph question answering model learns a predicate/entity embedding from a question with a bidirectional LSTM or GRU over (seq, batch, dim) inputs; the RNN outputs are flattened to (seq * batch, 2h), concatenated with the word embeddings, scored by an nn.Sequential(Linear, Tanh, Linear(h, 1)) attention scorer, softmaxed with F.softmax(..., dim=1), placed on a diagonal with torch.diag(weights[:, 0]) and multiplied into the outputs before the tagging head
# why: buggy: the scorer ends in Linear(h, 1), so the scores have shape (seq * batch, 1) and dim=1 is a length-1 axis: every attention weight is exactly 1.0 and the "attention" is the identity; the weights were meant to be distributed over the words of a question; the repository's maintainer confirmed it on the issue tracker and removed the attention in a commit titled "Temporarily Fix the Attention bug" (no fixed attention exists)
# source: https://github.com/xhuang31/KEQA_WSDM19 https://github.com/xhuang31/KEQA_WSDM19/commit/f923a15cc732e8844c26e4c653c306c90e067734 embedding.py
import torch
import torch.nn.functional as F
from torch import nn


class QuestionEmbedder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.words_num, cfg.words_dim)
        if not cfg.train_embed:
            self.embed.weight.requires_grad = False
        rnn = nn.LSTM if cfg.qa_mode.upper() == "LSTM" else nn.GRU
        self.rnn = rnn(input_size=cfg.words_dim, hidden_size=cfg.hidden_size, num_layers=cfg.num_layer,
                       dropout=cfg.rnn_dropout, bidirectional=True)
        self.act = nn.Tanh()
        self.scorer = nn.Sequential(
            nn.Linear(cfg.hidden_size * 2 + cfg.words_dim, cfg.hidden_size),
            self.act,
            nn.Linear(cfg.hidden_size, 1),
        )
        self.head = nn.Sequential(
            nn.Linear(cfg.hidden_size * 2 + cfg.words_dim, cfg.hidden_size * 2),
            nn.BatchNorm1d(cfg.hidden_size * 2),
            self.act,
            nn.Dropout(p=cfg.rnn_fc_dropout),
            nn.Linear(cfg.hidden_size * 2, cfg.label),
        )

    def forward(self, batch):
        words = self.embed(batch.text)  # (seq, batch, words_dim)
        num_word, batch_size, words_dim = words.size()
        outputs, _ = self.rnn(words)
        outputs = outputs.view(-1, outputs.size(2))  # (seq * batch, 2h)
        words = words.view(-1, words_dim)

        weights = F.softmax(self.scorer(torch.cat((words, outputs), 1)), dim=1)  # expect: ATT001
        attended = torch.bmm(torch.diag(weights[:, 0]).unsqueeze(0), outputs.unsqueeze(0))
        features = torch.cat((words, attended.squeeze(0)), 1)

        tags = self.head(features).view(num_word, batch_size, -1)
        return nn.functional.normalize(torch.mean(tags, dim=0), dim=1)
