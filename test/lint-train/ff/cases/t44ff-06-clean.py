# case: t44ff-06-clean
# modelled-on: Tonyxu74/IMDB-bilstm-attention https://github.com/Tonyxu74/IMDB-bilstm-attention/commit/6cf3fff2edd699420f1da9e5e3200938fd4d95f6
# label: correct
# class: clean
# pattern: IMDB sentiment with a batch-first BiLSTM and final-state attention: the two directions' last hidden states `h_n` (2, B, H/2) are concatenated over dim 1 into (B, H), the scores `bmm(rnn_out, state.unsqueeze(2))` are (B, T, 1), squeezed to (B, T) and softmaxed with no `dim` (the legacy implicit dim, 1 for a 2-D input), then `bmm(rnn_out^T, weights)` pools over time
# why: correct: the implicit softmax dim of a 2-D tensor is 1, the T time steps of each review (batch_first LSTM), the axis the pooling bmm sums over; `cat([s for s in h_n], 1)` joins the forward and backward states per example, matching the BiLSTM's output width
# looks-like: ATT001
# source: https://github.com/Tonyxu74/IMDB-bilstm-attention https://github.com/Tonyxu74/IMDB-bilstm-attention/commit/6cf3fff2edd699420f1da9e5e3200938fd4d95f6 utils/model.py
import torch
from torch import nn


class ReviewAttentionLSTM(nn.Module):
    def __init__(self, emb_dim=300, hidden=128, layers=1, batch=8, pad_to=200):
        super().__init__()
        self.hidden = hidden
        self.layers = layers
        self.batch = batch
        self.pad_to = pad_to
        self.rnn = nn.LSTM(emb_dim, hidden // 2, batch_first=True, num_layers=layers, bidirectional=True)
        self.to_label = nn.Linear(hidden, 2)

    def zero_state(self, batch=None):
        batch = batch or self.batch
        dev = self.to_label.weight.device
        h0 = torch.zeros(2 * self.layers, batch, self.hidden // 2, device=dev)
        c0 = torch.zeros(2 * self.layers, batch, self.hidden // 2, device=dev)
        return h0, c0

    def pool(self, outputs, last_states):
        query = torch.cat([s for s in last_states], 1).unsqueeze(2)   # (B, H, 1)
        scores = torch.bmm(outputs, query)                            # (B, T, 1)
        alpha = torch.nn.functional.softmax(scores.squeeze(2)).unsqueeze(2)
        return torch.bmm(torch.transpose(outputs, 1, 2), alpha).squeeze(2)

    def forward(self, embedded):
        outputs, (h_n, c_n) = self.rnn(embedded, self.zero_state(embedded.size(0)))
        return self.to_label(self.pool(outputs, h_n))

    @torch.no_grad()
    def classify(self, tokens, field):
        tokens = field.preprocess(tokens)[: self.pad_to]
        tokens = tokens + ["<pad>"] * (self.pad_to - len(tokens))
        vecs = torch.stack([field.vocab.vectors[field.vocab.stoi[t]] for t in tokens]).unsqueeze(0)
        probs = torch.softmax(self.forward(vecs.to(self.to_label.weight.device)), dim=1)
        return probs.cpu().numpy(), int(probs.argmax(dim=1)[0])
