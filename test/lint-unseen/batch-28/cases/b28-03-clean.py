# case: b28-03-clean
# modelled-on: zjucgl/PAUT https://github.com/zjucgl/PAUT/commit/54b04d04b106354a064d9c029668485500a8068c
# label: correct
# class: clean
# pattern: an ultrasound-inspection classifier's SAGAN-style spatial self-attention: 1x1 convs to query/key (C/8) and value (C), query viewed (B, -1, HW) and permuted to (B, HW, C/8), energy = bmm(query, key) of shape (B, HW, HW), softmax over dim=-1, out = bmm(value, attention.permute(0, 2, 1)), a zero-initialised gamma gating the residual
# why: correct: energy[b, i, j] pairs query position i with key position j, so dim=-1 normalises over the keys; bmm(value (B, C, HW), attention^T (B, HW_j, HW_i)) sums the values over j for each i; SAGAN uses no 1/sqrt(d) scale by design; nothing is masked
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/zjucgl/PAUT https://github.com/zjucgl/PAUT/commit/54b04d04b106354a064d9c029668485500a8068c code/PAUT/net/att/SelfAtt.py
import torch
import torch.nn as nn


class SpatialSelfAttention(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.f = nn.Conv2d(ch, ch // 8, kernel_size=1)
        self.g = nn.Conv2d(ch, ch // 8, kernel_size=1)
        self.h = nn.Conv2d(ch, ch, kernel_size=1)
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        n, c, hh, ww = x.size()
        q = self.f(x).view(n, -1, hh * ww).permute(0, 2, 1)
        k = self.g(x).view(n, -1, hh * ww)
        affinity = torch.bmm(q, k)
        attn_map = torch.softmax(affinity, dim=-1)
        v = self.h(x).view(n, -1, hh * ww)
        out = torch.bmm(v, attn_map.permute(0, 2, 1))
        out = out.view(n, c, hh, ww)
        return self.gamma * out + x


if __name__ == '__main__':
    block = SpatialSelfAttention(64)
    print(block(torch.randn(2, 64, 12, 12)).shape)
