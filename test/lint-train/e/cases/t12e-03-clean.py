# case: t12e-03-clean
# modelled-on: yufengm/SelfAttentive https://github.com/yufengm/SelfAttentive/commit/2743774ad176719d9082ad97f90bef6b586d4420
# label: correct
# class: clean
# pattern: a structured self-attentive sentence embedding (Lin et al., 2017) in old-style PyTorch: a BiLSTM over padded, packed sentences, then a per-sentence loop that takes the unpadded hidden states H (len, 2*nhid), computes s2 = W2 tanh(W1 H) as (len, r), and softmaxes s2.t() (r, len) with the implicit dim, followed by M = A @ H and the penalty ||A A^T - I||
# why: correct: for a 2-D input, softmax without dim picks dim=1 (PyTorch's legacy rule, with a deprecation warning), which for A = s2.t() of shape (r, len) is the token axis: each of the r attention hops is a distribution over the sentence's tokens, as the paper defines; the per-sentence slice H[:len] removes padding, so no mask is needed; the additive scoring has no scale; what a naive linter could misread: ATT001 (a softmax with no dim, on a transposed tensor), ATT003 (no scale)
# looks-like: ATT001, ATT003
# source: https://github.com/yufengm/SelfAttentive https://github.com/yufengm/SelfAttentive/commit/2743774ad176719d9082ad97f90bef6b586d4420 model.py
import torch
import torch.nn as nn
from torch.nn import functional


class SentenceEmbedder(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, da, r, mlp_nhid, nclass):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, bias=False, batch_first=True, bidirectional=True)
        self.S1 = nn.Linear(nhid * 2, da, bias=False)
        self.S2 = nn.Linear(da, r, bias=False)
        self.MLP = nn.Linear(r * nhid * 2, mlp_nhid)
        self.decoder = nn.Linear(mlp_nhid, nclass)
        self.r = r
        self.nhid = nhid

    def forward(self, input, hidden, lengths):
        emb = self.encoder(input)
        packed = torch.nn.utils.rnn.pack_padded_sequence(emb, lengths, batch_first=True)
        output, hidden = self.rnn(packed, hidden)
        padded, lens = torch.nn.utils.rnn.pad_packed_sequence(output, batch_first=True)

        BM = torch.zeros(input.size(0), self.r * self.nhid * 2)
        penal = torch.zeros(1)
        eye = torch.eye(self.r)
        weights = {}
        for i in range(input.size(0)):
            H = padded[i, : lens[i], :]
            s2 = self.S2(torch.tanh(self.S1(H)))  # (len, r)
            A = functional.softmax(s2.t())  # (r, len)
            M = torch.mm(A, H)
            BM[i, :] = M.view(-1)
            AAT = torch.mm(A, A.t())
            penal += torch.norm(AAT - eye, 2) ** 2
            weights[i] = A
        penal /= input.size(0)
        decoded = self.decoder(functional.relu(self.MLP(BM)))
        return decoded, hidden, penal, weights
