# case: t19l-07-scale
# modelled-on: liqi17thu/Stand-Alone-Self-Attention https://github.com/liqi17thu/Stand-Alone-Self-Attention/commit/8648ff048e1b2185bdc00d52419635ff7436fe7a
# label: buggy
# class: real-bug
# pattern: a local stand-alone self-attention convolution (Ramachandran et al. 2019) for a ResNet: 1x1 grouped convolutions give q, k and v; keys and values are padded and unfolded into k x k windows, relative height / width embeddings are added to the two halves of the key channels, and the per-group dot product is (q * k).sum(dim=2) over the out_channels // groups channels of a group, multiplied by self.groups / self.out_channels, then softmax over the window axis (dim=-1) and a weighted sum of the values
# why: buggy: groups / out_channels is 1 / d_group, so the scores are divided by the group width instead of its square root (8x too small for 64-channel groups, flattening the window softmax); the author's later commits replace it with a square root, ending at np.sqrt(heads / out_channels) = 1 / sqrt(d_head) (commit 4f253831926135b46039a61257f429d498da0854 and after)
# source: https://github.com/liqi17thu/Stand-Alone-Self-Attention https://github.com/liqi17thu/Stand-Alone-Self-Attention/commit/8648ff048e1b2185bdc00d52419635ff7436fe7a models/units/attentionUnit.py
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init


class WindowAttentionConv(nn.Module):
    def __init__(self, cin, cout, k, stride=1, padding=0, groups=1, bias=False):
        super().__init__()
        assert cout % groups == 0, "cout must be divisible by groups"
        self.cout, self.k, self.stride, self.padding, self.groups = cout, k, stride, padding, groups
        self.rel_h = nn.Parameter(torch.randn(cout // 2, 1, 1, k, 1))
        self.rel_w = nn.Parameter(torch.randn(cout // 2, 1, 1, 1, k))
        self.key_conv = nn.Conv2d(cin, cout, kernel_size=1, bias=bias, groups=groups)
        self.query_conv = nn.Conv2d(cin, cout, kernel_size=1, bias=bias, groups=groups)
        self.value_conv = nn.Conv2d(cin, cout, kernel_size=1, bias=bias, groups=groups)
        for conv in (self.key_conv, self.query_conv, self.value_conv):
            init.kaiming_normal_(conv.weight, mode="fan_out", nonlinearity="relu")
        init.normal_(self.rel_h, 0, 1)
        init.normal_(self.rel_w, 0, 1)

    def forward(self, x):
        b, _, h, w = x.size()
        g, dg = self.groups, self.cout // self.groups
        padded = F.pad(x, [self.padding] * 4)
        q = self.query_conv(x)
        k = self.key_conv(padded).unfold(2, self.k, self.stride).unfold(3, self.k, self.stride)
        v = self.value_conv(padded).unfold(2, self.k, self.stride).unfold(3, self.k, self.stride)

        kh, kw = k.split(self.cout // 2, dim=1)
        k = torch.cat((kh + self.rel_h, kw + self.rel_w), dim=1)
        k = k.contiguous().view(b, g, dg, h, w, -1)
        v = v.contiguous().view(b, g, dg, h, w, -1)
        q = q.view(b, g, dg, h, w, 1)

        att = (q * k).sum(dim=2, keepdim=True) * self.groups / self.cout  # expect: ATT004
        att = F.softmax(att, dim=-1)
        return (att * v).sum(dim=-1).view(b, -1, h, w)


class AttentionBottleneck(nn.Module):
    expansion = 4

    def __init__(self, cin, width, stride=1, groups=8):
        super().__init__()
        self.reduce = nn.Sequential(nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU())
        self.attend = nn.Sequential(WindowAttentionConv(width, width, 7, padding=3, groups=groups), nn.BatchNorm2d(width), nn.ReLU())
        self.pool = nn.AvgPool2d(stride, stride) if stride > 1 else nn.Identity()
        self.expand = nn.Sequential(nn.Conv2d(width, width * self.expansion, 1, bias=False), nn.BatchNorm2d(width * self.expansion))
        self.shortcut = nn.Identity() if stride == 1 and cin == width * self.expansion else nn.Sequential(
            nn.Conv2d(cin, width * self.expansion, 1, stride=stride, bias=False), nn.BatchNorm2d(width * self.expansion)
        )

    def forward(self, x):
        out = self.expand(self.pool(self.attend(self.reduce(x))))
        return F.relu(out + self.shortcut(x))
