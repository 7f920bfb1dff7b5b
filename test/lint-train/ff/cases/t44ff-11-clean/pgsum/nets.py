# case: t44ff-11-clean
# modelled-on: YUECHE77/Pointer-Generator-Network https://github.com/YUECHE77/Pointer-Generator-Network/commit/e95dbce49990aaf1f9d19b9437144fe8148914ce
# label: correct
# class: clean
# pattern: pointer-generator summarisation (additive attention with coverage): scores (B, T_src) from `v(tanh(W_h h + W_s s + W_c cov))`, `softmax(scores, dim=1) * enc_padding_mask`, then divided by its row sum to renormalise, `bmm` with the encoder outputs; the padding mask (1 = real token) is built by the training step in another module as `(source_ext != 0).float()[:, :max_len]`
# why: correct: multiplying the softmax by the 0/1 keep mask and dividing by the new row sum is exactly a softmax restricted to the real tokens (the pad entries become 0 and the rest sum to 1), the See et al. formulation; every source has at least one real token, so the sum is never 0; the scores are (B, T_src), so dim=1 is the source axis the bmm sums over
# looks-like: ATT001, ATT002, ATT006
# source: https://github.com/YUECHE77/Pointer-Generator-Network https://github.com/YUECHE77/Pointer-Generator-Network/commit/e95dbce49990aaf1f9d19b9437144fe8148914ce model/PGnet.py
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class SourceEncoder(nn.Module):
    def __init__(self, vocab=50000, emb=64, hid=128):
        super().__init__()
        self.hid = hid
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid, num_layers=1, batch_first=True, bidirectional=True)
        self.W_h = nn.Linear(hid * 2, hid * 2, bias=False)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        out, state = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True)       # (B, T_src, 2 * hid)
        out = out.contiguous()
        feats = self.W_h(out.view(-1, 2 * self.hid))              # (B * T_src, 2 * hid)
        return out, feats, state


class CoverageAttention(nn.Module):
    def __init__(self, hid, use_coverage=True):
        super().__init__()
        self.hid = hid
        self.use_coverage = use_coverage
        self.W_c = nn.Linear(1, hid * 2, bias=False) if use_coverage else None
        self.W_s = nn.Linear(hid * 2, hid * 2)
        self.v = nn.Linear(hid * 2, 1, bias=False)

    def forward(self, s_hat, enc_out, enc_feats, pad_mask, coverage):
        b, t_src, n = enc_out.size()
        dec = self.W_s(s_hat).unsqueeze(1).expand(b, t_src, n).contiguous().view(-1, n)
        feats = enc_feats + dec
        if self.use_coverage:
            feats = feats + self.W_c(coverage.view(-1, 1))
        scores = self.v(torch.tanh(feats)).view(-1, t_src)        # (B, T_src)
        weights = F.softmax(scores, dim=1) * pad_mask
        weights = weights / weights.sum(1, keepdim=True)          # renormalise over the real tokens
        ctx = torch.bmm(weights.unsqueeze(1), enc_out).view(-1, self.hid * 2)
        if self.use_coverage:
            coverage = coverage.view(-1, t_src) + weights
        return ctx, weights, coverage
