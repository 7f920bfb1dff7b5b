# case: t32y-06-clean
# modelled-on: Tysby101/cgan-multi-domain-translation https://github.com/Tysby101/cgan-multi-domain-translation/commit/c767596ea59979ba7a74b5511f54f5aac6062f9d
# label: correct
# class: clean
# pattern: a conditional GAN's generator self-attention block (SAGAN): 1x1 convs to query and key (C/8) and value (C), proj_query (B, HW, C/8) from view + permute, attention = bmm(proj_query, proj_key) of shape (B, HW, HW), softmax over dim=-1, out = bmm(proj_value, attention.permute(0, 2, 1)), gamma-gated residual
# why: correct: rows of the attention map are query positions and dim=-1 normalises over the key positions; bmm(value (B, C, HW), attention^T) sums the values over the key axis for each query; SAGAN is unscaled by design; nothing is masked
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/Tysby101/cgan-multi-domain-translation https://github.com/Tysby101/cgan-multi-domain-translation/commit/c767596ea59979ba7a74b5511f54f5aac6062f9d src/models/layers/SelfAttention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class GenSelfAttention(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.to_q = nn.Conv2d(ch, ch // 8, 1)
        self.to_k = nn.Conv2d(ch, ch // 8, 1)
        self.to_v = nn.Conv2d(ch, ch, 1)
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        b, c, h, w = x.size()
        pq = self.to_q(x).view(b, -1, h * w).permute(0, 2, 1)
        pk = self.to_k(x).view(b, -1, h * w)
        pv = self.to_v(x).view(b, -1, h * w)
        amap = F.softmax(torch.bmm(pq, pk), dim=-1)
        out = torch.bmm(pv, amap.permute(0, 2, 1)).view(b, c, h, w)
        return self.gamma * out + x
