import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, hid):
        super().__init__()
        self.attn = nn.Linear(2 * hid, hid)
        self.v = nn.Linear(hid, 1, bias=False)

    def forward(self, hidden, enc_out, src_mask):
        # hidden: (B, H); enc_out: (T, B, H); src_mask: (T, B)
        T = enc_out.shape[0]
        h = hidden.unsqueeze(0).repeat(T, 1, 1)
        energy = torch.tanh(self.attn(torch.cat((h, enc_out), dim=2)))
        a = self.v(energy).squeeze(2)  # (T, B)
        a = a.masked_fill(src_mask == 0, -1e10)
        return F.softmax(a, dim=1)


class Seq2Seq(nn.Module):
    def __init__(self, vocab, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, hid)
        self.enc = nn.GRU(hid, hid)
        self.attention = Attention(hid)
        self.out = nn.Linear(2 * hid, vocab)

    def forward(self, src, src_mask, dec_hidden):
        enc_out, _ = self.enc(self.emb(src))
        a = self.attention(dec_hidden, enc_out, src_mask)  # (T, B)
        ctx = torch.einsum("tb,tbh->bh", a, enc_out)
        return self.out(torch.cat([ctx, dec_hidden], dim=1))
