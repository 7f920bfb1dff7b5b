# case: t20m-08-clean
# modelled-on: LeanderZiehm/DeepLearning-Class-Hierarchical-Attention-Networks-for-Document-Classification https://github.com/LeanderZiehm/DeepLearning-Class-Hierarchical-Attention-Networks-for-Document-Classification/commit/db3706b9654ecfbdc3b2ddcb9c41cd0b91bf38a0
# label: correct
# class: clean
# pattern: a hierarchical attention network for document classification (course project): the word encoder drops empty sentences first, runs a packed BiGRU over the rest, scores each word against a context vector into (n_sentences, n_words) logits, builds a keep mask from the lengths (arange(T)[None, :] < lengths[:, None]), fills masked_fill(~mask, -inf) and softmaxes over dim=1 (the words); the sentence encoder does the same over sentences with the sentence counts
# why: correct: the scores are 2-D (rows, positions) after squeeze(-1), so dim=1 is the position axis; ~mask is True at the padding positions; every row has at least one real position (empty sentences were removed before the word attention, and a document has at least one sentence), so the -inf fill never empties a row; additive attention needs no 1/sqrt(d) scale
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/LeanderZiehm/DeepLearning-Class-Hierarchical-Attention-Networks-for-Document-Classification https://github.com/LeanderZiehm/DeepLearning-Class-Hierarchical-Attention-Networks-for-Document-Classification/commit/db3706b9654ecfbdc3b2ddcb9c41cd0b91bf38a0 main/src/han_model.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class WordAttentionEncoder(nn.Module):
    def __init__(self, vocab_size, embed_dim=200, hidden=50):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.gru = nn.GRU(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.attention = nn.Linear(2 * hidden, 2 * hidden)
        self.context = nn.Linear(2 * hidden, 1, bias=False)

    def forward(self, sentences, word_lengths):
        # sentences: (batch, n_sent, n_words); word_lengths: (batch, n_sent)
        b, n_sent, n_words = sentences.shape
        sentences = sentences.view(-1, n_words)
        word_lengths = word_lengths.view(-1)
        valid = word_lengths > 0  # empty (padding) sentences are left out
        lengths = word_lengths[valid]
        packed = pack_padded_sequence(self.embedding(sentences[valid]), lengths.cpu(), batch_first=True, enforce_sorted=False)
        outputs, _ = pad_packed_sequence(self.gru(packed)[0], batch_first=True)

        scores = self.context(torch.tanh(self.attention(outputs))).squeeze(-1)  # (n_valid, T)
        keep = torch.arange(outputs.size(1), device=outputs.device)[None, :] < lengths[:, None]
        scores = scores.masked_fill(~keep, -float("inf"))
        weights = F.softmax(scores, dim=1)
        vectors = torch.sum(outputs * weights.unsqueeze(-1), dim=1)

        full = torch.zeros(b * n_sent, vectors.size(-1), device=sentences.device)
        full[valid] = vectors
        return full.view(b, n_sent, -1)


class SentenceAttentionEncoder(nn.Module):
    def __init__(self, hidden=50, num_classes=5):
        super().__init__()
        self.gru = nn.GRU(2 * hidden, hidden, batch_first=True, bidirectional=True)
        self.attention = nn.Linear(2 * hidden, 2 * hidden)
        self.context = nn.Linear(2 * hidden, 1, bias=False)
        self.classifier = nn.Linear(2 * hidden, num_classes)

    def forward(self, sentence_vectors, sentence_lengths):
        packed = pack_padded_sequence(sentence_vectors, sentence_lengths.cpu(), batch_first=True, enforce_sorted=False)
        outputs, _ = pad_packed_sequence(self.gru(packed)[0], batch_first=True)
        scores = self.context(torch.tanh(self.attention(outputs))).squeeze(-1)  # (batch, n_sent)
        keep = torch.arange(outputs.size(1), device=outputs.device)[None, :] < sentence_lengths[:, None]
        scores = scores.masked_fill(~keep, -float("inf"))
        weights = F.softmax(scores, dim=1)
        doc = torch.sum(outputs * weights.unsqueeze(-1), dim=1)
        return self.classifier(doc), weights
