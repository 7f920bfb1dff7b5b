# case: b17-08-clean
# modelled-on: aditya-srikanth/Hierarchical-Self-Attention-Network https://github.com/aditya-srikanth/Hierarchical-Self-Attention-Network/commit/eb5da577ce3ecb898281b2dfb6600af9f65f6509
# label: correct
# class: clean
# pattern: an aspect-extraction tagger with global attention: a (batch, seq, 1) float keep mask arrives from the training loop, which builds it as (targets < PAD).unsqueeze(2).float(); the model turns it into an additive mask with (mask - 1) * 1e10, scores each BiRNN state against the final hidden state with bmm(w_a(states), final) into (batch, seq, 1), adds the additive mask, softmaxes with dim=1, transposes to (batch, 1, seq) and pools the states with bmm into one global context that is concatenated to every position
# why: correct: the mask is a float keep mask (1.0 = real token), so (mask - 1) * 1e10 is 0 on real tokens and -1e10 on padding, the additive form of the right polarity, and in float32 it cannot overflow; the scores are (batch, seq, 1), so dim=1 is the sequence axis and the length-1 axis is left alone; the score is a general (bilinear) attention, for which the paper prescribes no 1/sqrt(d) scale
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/aditya-srikanth/Hierarchical-Self-Attention-Network https://github.com/aditya-srikanth/Hierarchical-Self-Attention-Network/commit/eb5da577ce3ecb898281b2dfb6600af9f65f6509 pytorch/model.py, pytorch/train.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class GlobalAttentionTagger(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, n_tags, layers=1):
        super().__init__()
        self.layers = layers
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.encoder = nn.GRU(emb_dim, hidden_dim, num_layers=layers, bidirectional=True)
        self.w_a = nn.Linear(hidden_dim * 2, hidden_dim * 2, bias=True)
        self.w_f = nn.Linear(hidden_dim * 4, hidden_dim * 2, bias=False)
        self.w_r = nn.Linear(hidden_dim * 2, n_tags)

    def forward(self, tokens, lengths, mask=None):
        if mask is None:
            mask = torch.ones(tokens.shape[0], tokens.shape[1], 1, device=tokens.device)
        additive = (mask - 1) * 1e10

        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True, enforce_sorted=False)
        states, final = self.encoder(packed)
        states, _ = pad_packed_sequence(states, batch_first=True, padding_value=0)  # (batch, seq, 2h)
        batch, seq, width = states.shape

        final = final.view(self.layers, 2, batch, width // 2)[-1]  # (2, batch, h)
        final = final.transpose(0, 1).reshape(batch, -1, 1)  # (batch, 2h, 1)

        scores = torch.bmm(self.w_a(states), final) + additive  # (batch, seq, 1)
        weights = F.softmax(scores, dim=1).transpose(1, 2)  # (batch, 1, seq)
        context = torch.bmm(weights, states).expand_as(states)

        states = self.w_f(torch.cat([states, context], dim=2))
        return self.w_r(states)
