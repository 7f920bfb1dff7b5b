# case: t19l-01-scale
# modelled-on: liqi17thu/Stand-Alone-Self-Attention https://github.com/liqi17thu/Stand-Alone-Self-Attention/commit/0212d77928524442ff53b303cda6640c2ac864b6
# label: buggy
# class: real-bug
# pattern: stand-alone self-attention units for a CNN backbone: a local unit (unfolded k x k windows, elementwise q * k summed over the per-head channels) scales by np.sqrt(heads / out_channels), i.e. 1/sqrt(d_head); a global unit and an attention-pooling unit flatten queries to (N, d_head) and keys to (d_head, M) with permute + view, multiply with torch.mm and scale by np.sqrt(heads // channels), then softmax over dim=-1
# why: buggy: heads // channels is integer division of a smaller number by a larger one, so it is 0 and the scores are multiplied by np.sqrt(0) = 0: every softmax row is uniform and both units average the values; the local unit of the same file and the fixing commit use heads / channels (1/sqrt(d_head)). (The global and pooling units also flatten the batch and head axes into one key axis, a further defect no rule covers.)
# source: https://github.com/liqi17thu/Stand-Alone-Self-Attention https://github.com/liqi17thu/Stand-Alone-Self-Attention/commit/0212d77928524442ff53b303cda6640c2ac864b6 lib/models/units/saUnit.py, lib/models/units/utils.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .posenc import ChannelPositionalEncoding


class LocalSelfAttention(nn.Module):
    def __init__(self, cin, cout, k, stride=1, padding=0, heads=1):
        super().__init__()
        assert cout % heads == 0
        self.cout, self.k, self.stride, self.padding, self.heads = cout, k, stride, padding, heads
        self.rel_h = nn.Parameter(torch.randn(cout // 2, 1, 1, k, 1))
        self.rel_w = nn.Parameter(torch.randn(cout // 2, 1, 1, 1, k))
        self.q = nn.Conv2d(cin, cout, 1, stride=stride, bias=False, groups=heads)
        self.k_proj = nn.Conv2d(cin, cout, 1, bias=False, groups=heads)
        self.v = nn.Conv2d(cin, cout, 1, bias=False, groups=heads)

    def forward(self, x):
        b, _, h, w = x.size()
        ho, wo, dh = h // self.stride, w // self.stride, self.cout // self.heads
        padded = F.pad(x, [self.padding] * 4)
        q = self.q(x).view(b, self.heads, dh, ho, wo, 1)
        k = self.k_proj(padded).unfold(2, self.k, self.stride).unfold(3, self.k, self.stride)
        v = self.v(padded).unfold(2, self.k, self.stride).unfold(3, self.k, self.stride)
        kh, kw = k.split(self.cout // 2, dim=1)
        k = torch.cat((kh + self.rel_h, kw + self.rel_w), dim=1).contiguous().view(b, self.heads, dh, ho, wo, -1)
        v = v.contiguous().view(b, self.heads, dh, ho, wo, -1)
        att = (q * k).sum(dim=2, keepdim=True) * np.sqrt(self.heads / self.cout)
        att = F.softmax(att, dim=-1)
        return (att * v).sum(dim=-1).view(b, -1, ho, wo)


class GlobalSelfAttention(nn.Module):
    def __init__(self, cin, cout, heads=1):
        super().__init__()
        assert cout % heads == 0
        self.cout, self.heads = cout, heads
        self.pos = ChannelPositionalEncoding(cout)
        self.q = nn.Conv2d(cin, cout, 1, bias=False, groups=heads)
        self.k = nn.Conv2d(cin, cout, 1, bias=False, groups=heads)
        self.v = nn.Conv2d(cin, cout, 1, bias=False, groups=heads)

    def forward(self, x):
        b, _, h, w = x.size()
        dh = self.cout // self.heads
        k = self.pos(self.k(x).view(b, self.cout, -1)).view(b, self.heads, dh, h, w)
        q = self.q(x).view(b, self.heads, dh, h, w).permute(0, 1, 3, 4, 2).contiguous().view(-1, dh)
        k = k.permute(2, 0, 1, 3, 4).contiguous().view(dh, -1)
        v = self.v(x).view(b, self.heads, dh, h, w).permute(0, 1, 3, 4, 2).contiguous().view(-1, dh)
        att = torch.mm(q, k) * np.sqrt((self.heads // self.cout))  # expect: ATT004
        att = F.softmax(att, dim=-1)
        out = torch.mm(att, v).view(b, self.heads, h, w, dh)
        return out.permute(0, 1, 4, 2, 3).contiguous().view(b, -1, h, w)


class AttentionPool(nn.Module):
    def __init__(self, channels, heads=1):
        super().__init__()
        assert channels % heads == 0
        self.channels, self.heads = channels, heads
        self.query = nn.Parameter(torch.randn(1, heads, channels // heads))
        self.k = nn.Conv2d(channels, channels, 1, bias=False, groups=heads)
        self.v = nn.Conv2d(channels, channels, 1, bias=False, groups=heads)

    def forward(self, x):
        b, _, h, w = x.size()
        dh = self.channels // self.heads
        k = self.k(x).view(b, self.heads, dh, h, w).permute(2, 0, 1, 3, 4).contiguous().view(dh, -1)
        v = self.v(x).view(b, self.heads, dh, h, w).permute(0, 1, 3, 4, 2).contiguous().view(-1, dh)
        q = self.query.repeat(b, 1, 1).view(-1, dh)
        att = torch.mm(q, k) * np.sqrt((self.heads // self.channels))  # expect: ATT004
        att = F.softmax(att, dim=-1)
        return torch.mm(att, v).view(b, self.channels, 1, 1)
