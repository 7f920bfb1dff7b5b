# case: b11-06-clean
# modelled-on: 1666sApple/Transformer-based-natural-machine-translation https://github.com/1666sApple/Transformer-based-natural-machine-translation/commit/e674b2798095a9de028055395e1b73970b9c2590
# label: correct
# class: clean
# pattern: additive (Bahdanau) attention for a GRU encoder-decoder with time-major encoder outputs (Src, B, 2H): the query (B, H) is projected and broadcast against the projected keys (Src, B, H), an energy layer Linear(H, 1) gives (Src, B, 1), squeezed to (Src, B), padded source positions are filled with -inf where the source mask is 0, the softmax runs over dim=0 and the weights are returned transposed to (B, Src) for a batched product with the batch-first encoder outputs
# why: correct: the energies are time-major, so dim=0 is the source-length axis (the module's comment says so) and each batch column sums to one over the source tokens; src_mask is a keep mask (1 on real tokens), so == 0 selects the padding; additive attention has no dot-product scale; what a naive linter could misread: ATT001 (softmax over dim=0 of 2-D scores, after a squeeze of a Linear(H, 1) axis), ATT002 (a keep mask compared with 0 inside masked_fill_), ATT003 (no scale)
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/1666sApple/Transformer-based-natural-machine-translation https://github.com/1666sApple/Transformer-based-natural-machine-translation/commit/e674b2798095a9de028055395e1b73970b9c2590 model/BahdanauAttentionQKV.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    def __init__(self, hidden_size, query_size=None, key_size=None, dropout_p=0.15):
        super().__init__()
        self.query_size = hidden_size if query_size is None else query_size
        self.key_size = 2 * hidden_size if key_size is None else key_size  # bidirectional encoder
        self.q_proj = nn.Linear(self.query_size, hidden_size)
        self.k_proj = nn.Linear(self.key_size, hidden_size)
        self.energy = nn.Linear(hidden_size, 1)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, hidden, enc_out, src_mask=None):
        q = self.q_proj(hidden)  # (B, H)
        k = self.k_proj(enc_out)  # (Src, B, H)
        e = torch.tanh(q.unsqueeze(0) + k)  # (Src, B, H)
        scores = self.energy(e).squeeze(2)  # (Src, B)
        if src_mask is not None:
            scores = scores.masked_fill(src_mask == 0, float("-inf"))  # src_mask: (Src, B), 1 = token
        weights = F.softmax(scores, dim=0)  # over the source positions
        return weights.transpose(0, 1)  # (B, Src)


class AttnDecoderStep(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.attn = AdditiveAttention(hidden)
        self.rnn = nn.GRU(emb + 2 * hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, token, hidden, enc_out, src_mask):
        # token: (B,), hidden: (1, B, H), enc_out: (Src, B, 2H)
        x = self.embed(token).unsqueeze(0)  # (1, B, emb)
        w = self.attn(hidden[-1], enc_out, src_mask)  # (B, Src)
        ctx = torch.bmm(w.unsqueeze(1), enc_out.transpose(0, 1))  # (B, 1, 2H)
        y, hidden = self.rnn(torch.cat([x, ctx.transpose(0, 1)], dim=2), hidden)
        return self.out(y.squeeze(0)), hidden, w
