# case: b5-16-clean
# modelled-on: GuiFigueired0/SpeechTransformer-Pytorch https://github.com/GuiFigueired0/SpeechTransformer-Pytorch/commit/dfa58ad021d29bb2339e5a03cad1827b0d7b325b
# label: correct
# class: clean
# pattern: a PyTorch port of the TensorFlow transformer tutorial for speech: the masks come from a helper module in the tutorial's convention (1.0 = hide: padding where the token is 0, look-ahead as triu(ones, diagonal=1), combined with torch.max), and the attention adds mask * -1e9 to the scaled logits before a softmax over the last axis; the decoder passes the combined mask to its self-attention and the padding mask to its cross-attention
# why: correct: every mask is 1 where a key must be hidden, so adding mask * -1e9 pushes exactly those logits to -1e9 before the softmax; the scale is sqrt(depth) per head
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/GuiFigueired0/SpeechTransformer-Pytorch https://github.com/GuiFigueired0/SpeechTransformer-Pytorch/commit/dfa58ad021d29bb2339e5a03cad1827b0d7b325b model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from masks import build_masks


class TutorialMultiHead(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.d_model = d_model
        self.depth = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def split(self, x, b):
        # (b, len, d_model) -> (b, heads, len, depth)
        return x.view(b, -1, self.num_heads, self.depth).permute(0, 2, 1, 3)

    def forward(self, q, k, v, mask=None):
        b = q.size(0)
        q, k, v = self.split(self.wq(q), b), self.split(self.wk(k), b), self.split(self.wv(v), b)
        att, weights = self.attend(q, k, v, mask)
        att = att.permute(0, 2, 1, 3).contiguous().view(b, -1, self.d_model)
        return self.out(att), weights

    def attend(self, q, k, v, mask=None):
        logits = torch.matmul(q, k.transpose(-2, -1))  # (b, heads, len_q, len_k)
        dk = q.size(-1)
        logits = logits / torch.sqrt(torch.tensor(dk, dtype=torch.float32))
        if mask is not None:
            logits += mask * -1e9
        weights = F.softmax(logits, dim=-1)
        return torch.matmul(weights, v), weights


class DecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.self_attn = TutorialMultiHead(d_model, num_heads)
        self.cross_attn = TutorialMultiHead(d_model, num_heads)
        self.n1 = nn.LayerNorm(d_model)
        self.n2 = nn.LayerNorm(d_model)

    def forward(self, x, memory, self_mask, cross_mask):
        y, _ = self.self_attn(x, x, x, self_mask)
        x = self.n1(x + y)
        y, _ = self.cross_attn(x, memory, memory, cross_mask)
        return self.n2(x + y)


def decode(layer, frames, memory, tar_emb, tar):
    _, dec_self, dec_cross = build_masks(frames, tar)
    return layer(tar_emb, memory, dec_self, dec_cross)
