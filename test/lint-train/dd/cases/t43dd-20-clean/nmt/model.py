# case: t43dd-20-clean
# modelled-on: raquelaq/LSTM_bahdanau https://github.com/raquelaq/LSTM_bahdanau/commit/26d3b373f42ac7f0ca2616443377ad9b796686e9
# label: correct
# class: clean
# pattern: a Bahdanau (concat) attention seq2seq translator: the decoder state expanded over the source, `v(tanh(W([dec; enc])))` squeezed to scores (B, Tx), `masked_fill(mask == 0, -1e9)` with the source mask built by the collate function in another module (1 = real token, 0 = pad), `softmax(scores, dim=1)`, context `bmm(alpha.unsqueeze(1), enc_outputs)`; the encoder is a batch_first packed bidirectional LSTM, and the decoder step is called once per target position
# why: correct: the mask is a keep mask, so `mask == 0` selects the padding that gets -1e9; the scores are (B, Tx) with the batch first (batch_first encoder, pad_packed_sequence(batch_first=True)), so dim=1 is the source positions, the axis the bmm sums over; every source has at least one real token, so no row is fully masked
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/raquelaq/LSTM_bahdanau https://github.com/raquelaq/LSTM_bahdanau/commit/26d3b373f42ac7f0ca2616443377ad9b796686e9 model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConcatAttention(nn.Module):
    def __init__(self, enc_dim, dec_dim, attn_dim):
        super().__init__()
        self.W = nn.Linear(enc_dim + dec_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, dec_state, enc_out, mask=None):
        B, Tx, _ = enc_out.shape
        dec_state = dec_state.unsqueeze(1).expand(B, Tx, dec_state.size(-1))
        scores = self.v(torch.tanh(self.W(torch.cat([dec_state, enc_out], dim=-1)))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        alpha = F.softmax(scores, dim=1)
        context = torch.bmm(alpha.unsqueeze(1), enc_out).squeeze(1)
        return context, alpha


class SourceEncoder(nn.Module):
    def __init__(self, vocab, emb, hid, pad_idx=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=pad_idx)
        self.rnn = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)

    def forward(self, src, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(src), lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, (h, c) = self.rnn(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        return out, (h, c)


class StepDecoder(nn.Module):
    def __init__(self, vocab, emb, enc_dim, dec_dim, attn_dim, pad_idx=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=pad_idx)
        self.attn = ConcatAttention(enc_dim, dec_dim, attn_dim)
        self.rnn = nn.LSTM(emb + enc_dim, dec_dim, batch_first=True)
        self.out = nn.Linear(dec_dim + enc_dim, vocab)

    def forward(self, y_prev, hidden, enc_out, mask=None):
        h, c = hidden
        context, alpha = self.attn(h[-1], enc_out, mask=mask)
        x = torch.cat([self.emb(y_prev).unsqueeze(1), context.unsqueeze(1)], dim=-1)
        o, (h, c) = self.rnn(x, (h, c))
        return self.out(torch.cat([o.squeeze(1), context], dim=-1)), (h, c), alpha
