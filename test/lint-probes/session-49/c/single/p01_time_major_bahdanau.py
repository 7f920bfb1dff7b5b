import torch
import torch.nn as nn
import torch.nn.functional as F


class BahdanauAttention(nn.Module):
    """Additive attention over a time-major encoder (T, B, H)."""

    def __init__(self, enc_dim, dec_dim, attn_dim):
        super().__init__()
        self.W_enc = nn.Linear(enc_dim, attn_dim, bias=False)
        self.W_dec = nn.Linear(dec_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, dec_hidden, enc_outputs, src_mask):
        # enc_outputs: (T, B, H) from nn.GRU without batch_first; dec_hidden: (B, D)
        energy = torch.tanh(self.W_enc(enc_outputs) + self.W_dec(dec_hidden).unsqueeze(0))
        scores = self.v(energy).squeeze(2)  # (T, B)
        scores = scores.masked_fill(~src_mask, -1e10)  # src_mask: (T, B), True at real tokens
        alpha = F.softmax(scores, dim=0)  # over the source time steps
        context = (alpha.unsqueeze(2) * enc_outputs).sum(0)  # (B, H)
        return context, alpha


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid)

    def forward(self, src):
        # src: (T, B)
        outputs, h = self.rnn(self.emb(src))
        return outputs, h[-1]
