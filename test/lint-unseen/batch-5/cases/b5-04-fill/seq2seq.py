# case: b5-04-fill
# modelled-on: a-r-r-o-w/attention-is-all-you-need https://github.com/a-r-r-o-w/attention-is-all-you-need/commit/84d93b2f1cfb68918aba177077378f2869103c02
# label: correct
# class: fixed
# pattern: after the fix: an encoder-decoder transformer split over modules: the model builds a padding keep mask (tokens != pad) and a decoder mask (padding keep mask & tril(ones)) and hands them through a multi-head wrapper to a scaled dot-product module in another file, which fills the scores where `mask == False` before a softmax over the last axis (nn.Softmax(dim=3))
# why: correct: the keep masks are True at the positions to attend, `mask == False` selects the padding and future keys, and -1e9 (float32 scores) sends them to zero weight after the softmax over the keys
# looks-like: ATT002, ATT007
# source: https://github.com/a-r-r-o-w/attention-is-all-you-need https://github.com/a-r-r-o-w/attention-is-all-you-need/commit/84d93b2f1cfb68918aba177077378f2869103c02 models/scaled_dot_product_attention.py
import torch
import torch.nn as nn

from scaled_attention import ScaledDotAttention


class HeadSplitAttention(nn.Module):
    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.size = width // heads
        self.wq = nn.Linear(width, width)
        self.wk = nn.Linear(width, width)
        self.wv = nn.Linear(width, width)
        self.wo = nn.Linear(width, width)
        self.attend = ScaledDotAttention(self.size)

    def forward(self, q, k, v, mask=None):
        b = q.size(0)
        # (b, n, width) -> (b, heads, n, size)
        q = self.wq(q).view(b, -1, self.heads, self.size).transpose(1, 2)
        k = self.wk(k).view(b, -1, self.heads, self.size).transpose(1, 2)
        v = self.wv(v).view(b, -1, self.heads, self.size).transpose(1, 2)
        x = self.attend(q, k, v, mask)
        x = x.transpose(1, 2).contiguous().view(b, -1, self.heads * self.size)
        return self.wo(x)


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, width=512, heads=8, src_pad=0, tgt_pad=0):
        super().__init__()
        self.src_pad = src_pad
        self.tgt_pad = tgt_pad
        self.src_emb = nn.Embedding(src_vocab, width)
        self.tgt_emb = nn.Embedding(tgt_vocab, width)
        self.enc_self = HeadSplitAttention(width, heads)
        self.dec_self = HeadSplitAttention(width, heads)
        self.dec_cross = HeadSplitAttention(width, heads)
        self.out = nn.Linear(width, tgt_vocab)

    def source_mask(self, src):
        # (b, n) -> (b, 1, 1, n), True at real tokens
        return (src != self.src_pad).unsqueeze(1).unsqueeze(2)

    def target_mask(self, tgt):
        n = tgt.size(1)
        keep = (tgt != self.tgt_pad).unsqueeze(1).unsqueeze(2)
        # (1, n, n), True on and below the diagonal
        past = torch.tril(torch.ones((1, n, n), device=tgt.device)).bool()
        return keep & past

    def forward(self, src, tgt):
        src_mask = self.source_mask(src)
        tgt_mask = self.target_mask(tgt)
        mem = self.src_emb(src)
        mem = mem + self.enc_self(mem, mem, mem, src_mask)
        y = self.tgt_emb(tgt)
        y = y + self.dec_self(y, y, y, tgt_mask)
        y = y + self.dec_cross(y, mem, mem, src_mask)
        return self.out(y)
