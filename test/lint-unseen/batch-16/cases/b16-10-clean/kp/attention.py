# case: b16-10-clean
# modelled-on: memray/seq2seq-keyphrase-pytorch https://github.com/memray/seq2seq-keyphrase-pytorch/commit/e2cf5b031b98f5e5b2471294b911ce18a6ee1392
# label: correct
# class: clean
# pattern: a keyphrase-generation seq2seq (CopyRNN) with Luong "general" attention: the model builds a 0/1 keep mask from the source ids (ne(pad)), the attention multiplies the projected encoder states and then the energies by it, and normalises with a helper (layers module) that clamps the logits to [-15, 15], multiplies them by the mask, exponentiates after subtracting the row max, multiplies the exponentials by the mask again and divides by their sum (+1e-6); no scale, as in Luong et al.
# why: correct: the mask is 1 on real tokens, and multiplying the exponentials by it gives padding exactly zero weight while the sum in the denominator runs over real tokens only, i.e. a renormalised masked softmax; zeroing the masked logits first only keeps exp finite; Luong's general score is unscaled by design and the clamp bounds it
# looks-like: ATT002, ATT003, ATT006, ATT007
# source: https://github.com/memray/seq2seq-keyphrase-pytorch https://github.com/memray/seq2seq-keyphrase-pytorch/commit/e2cf5b031b98f5e5b2471294b911ce18a6ee1392 pykp/model.py
import torch
import torch.nn as nn

from .layers import GetMask, masked_softmax


class LuongAttention(nn.Module):
    def __init__(self, enc_dim, trg_dim):
        super().__init__()
        self.attn = nn.Linear(enc_dim, trg_dim)
        self.linear_out = nn.Linear(enc_dim + trg_dim, trg_dim, bias=False)

    def score(self, hiddens, encoder_outputs, encoder_mask=None):
        energies = self.attn(encoder_outputs)  # (batch, src_len, trg_dim)
        if encoder_mask is not None:
            energies = energies * encoder_mask.view(encoder_mask.size(0), encoder_mask.size(1), 1)
        return torch.bmm(hiddens, energies.transpose(1, 2))  # (batch, trg_len, src_len)

    def forward(self, hidden, encoder_outputs, encoder_mask=None):
        batch_size, trg_len, trg_dim = hidden.size()
        src_len, context_dim = encoder_outputs.size(1), encoder_outputs.size(2)
        energies = self.score(hidden, encoder_outputs, encoder_mask)
        if encoder_mask is None:
            weights = torch.softmax(energies.view(-1, src_len), dim=1).view(batch_size, trg_len, src_len)
        else:
            keep = encoder_mask.view(encoder_mask.size(0), 1, encoder_mask.size(1))
            energies = energies * keep
            weights = masked_softmax(energies, keep, -1)
        context = torch.bmm(weights, encoder_outputs)
        h_tilde = torch.tanh(self.linear_out(torch.cat((context, hidden), 2).view(-1, context_dim + trg_dim)))
        return h_tilde.view(batch_size, trg_len, trg_dim), weights


class Seq2SeqCopy(nn.Module):
    def __init__(self, vocab, emb=128, enc_dim=256, trg_dim=256, pad_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=pad_idx)
        self.encoder = nn.GRU(emb, enc_dim // 2, batch_first=True, bidirectional=True)
        self.decoder = nn.GRU(emb, trg_dim, batch_first=True)
        self.attention = LuongAttention(enc_dim, trg_dim)
        self.get_mask = GetMask(pad_idx)

    def forward(self, input_src, input_trg):
        ctx_mask = self.get_mask(input_src)
        enc_out, _ = self.encoder(self.embedding(input_src))
        dec_out, _ = self.decoder(self.embedding(input_trg))
        h_tilde, weights = self.attention(dec_out, enc_out, encoder_mask=ctx_mask)
        return h_tilde, weights
