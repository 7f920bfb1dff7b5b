# case: b17-05-clean
# modelled-on: jmribeiro/Pruning-and-Sparsemax-Methods-for-Hierarchical-Attention-Networks https://github.com/jmribeiro/Pruning-and-Sparsemax-Methods-for-Hierarchical-Attention-Networks/commit/dc7afb29eb86aaced905cd7e6b2355271882d824
# label: correct
# class: clean
# pattern: a hierarchical attention network for document classification: the normaliser is chosen in __init__ (torch.nn.Softmax(dim=1) by default); word-level and sentence-level attention score GRU states against a learned context vector with hidden @ context_vector, giving (sentences, words) and (batch, sentences) scores, normalise them with the module's dim=1 softmax, reshape the weights to (N, 1, T) and pool with weights @ hidden, then squeeze(dim=1)
# why: correct: hidden (N, T, 2H) @ vector (2H,) is (N, T), so dim=1 is the word (or sentence) axis and the softmax distributes each row's weight over its tokens; the reshape to (N, 1, T) makes the batched product sum over T; additive (context-vector) attention has no 1/sqrt(d) scale in the paper
# looks-like: ATT001, ATT003
# source: https://github.com/jmribeiro/Pruning-and-Sparsemax-Methods-for-Hierarchical-Attention-Networks https://github.com/jmribeiro/Pruning-and-Sparsemax-Methods-for-Hierarchical-Attention-Networks/commit/dc7afb29eb86aaced905cd7e6b2355271882d824 models.py
import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence


def split_into_sentences(document, pad, eos):
    sentences, current = [], []
    for token in document.tolist():
        if token == pad:
            break
        current.append(token)
        if token == eos:
            sentences.append(torch.tensor(current))
            current = []
    if current:
        sentences.append(torch.tensor(current))
    return pad_sequence(sentences, batch_first=True, padding_value=pad).to(document.device)


class HierarchicalAttention(nn.Module):
    def __init__(self, n_classes, embeddings, layers, hidden, dropout, pad, eos, normaliser="softmax"):
        super().__init__()
        self.pad, self.eos = pad, eos
        self.embed = nn.Embedding.from_pretrained(embeddings, padding_idx=pad)
        self.word_rnn = nn.GRU(embeddings.shape[1], hidden, layers, batch_first=True, bidirectional=True, dropout=dropout)
        self.word_proj = nn.Sequential(nn.Linear(hidden * 2, hidden * 2), nn.Tanh())
        self.word_context = nn.Parameter(torch.empty(hidden * 2).uniform_(-1, 1))
        self.sent_rnn = nn.GRU(hidden * 2, hidden, layers, batch_first=True, bidirectional=True, dropout=dropout)
        self.sent_proj = nn.Sequential(nn.Linear(hidden * 2, hidden * 2), nn.Tanh())
        self.sent_context = nn.Parameter(torch.empty(hidden * 2).uniform_(-1, 1))
        if normaliser == "softmax":
            self.normalise = nn.Softmax(dim=1)
        else:
            raise ValueError(f"unknown normaliser {normaliser}")
        self.out = nn.Linear(hidden * 2, n_classes)

    def encode_words(self, documents):
        sentences = []
        for document in documents:
            words = self.embed(split_into_sentences(document, self.pad, self.eos))  # S x L x E
            states, _ = self.word_rnn(words)  # S x L x 2H
            weights = self.normalise(self.word_proj(states) @ self.word_context)  # S x L
            weights = weights.reshape(weights.shape[0], 1, weights.shape[1])
            sentences.append((weights @ states).squeeze(dim=1))  # S x 2H
        return pad_sequence(sentences, batch_first=True)  # B x S x 2H

    def forward(self, documents):
        sents = self.encode_words(documents)
        states, _ = self.sent_rnn(sents)  # B x S x 2H
        weights = self.normalise(self.sent_proj(states) @ self.sent_context)  # B x S
        weights = weights.reshape(weights.shape[0], 1, weights.shape[1])
        docs = (weights @ states).squeeze(dim=1)  # B x 2H
        return self.out(docs)
