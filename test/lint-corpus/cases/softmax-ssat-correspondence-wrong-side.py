# case: softmax-ssat-correspondence-wrong-side
# modelled-on: Snowfallingplum/SSAT https://github.com/Snowfallingplum/SSAT/issues/5
# label: buggy
# pattern: makeup-transfer correspondence: mean-centred, channel-normalised features (n, c, HW) from two images, energy = bmm(fb.transpose(-2, -1), fa) * alpha is (n, HW_b, HW_a); the softmax is over dim=2 and the warp is bmm(b_raw.view(n, raw_c, HW), corr), the weights on the right
# why: bmm(b_raw, corr) sums over corr's axis 1 (the positions of b), so each position of a mixes b's features with weights normalised over a's positions instead of over b's; the maintainer agreed and the repository now takes the softmax over dim=1
import torch
import torch.nn as nn
import torch.nn.functional as F


class SymmetryAttention(nn.Module):
    def __init__(self, in_dim: int = 64 * 17, alpha: float = 100.0):
        super().__init__()
        self.alpha = alpha
        self.fa_conv = nn.Conv2d(in_dim, in_dim // 8, kernel_size=1)
        self.fb_conv = nn.Conv2d(in_dim, in_dim // 8, kernel_size=1)

    def warp(self, fa, fb, a_raw, b_raw):
        n, c, h, w = fa.shape
        _, raw_c, _, _ = a_raw.shape
        fa = fa - torch.mean(fa, dim=(2, 3), keepdim=True)
        fb = fb - torch.mean(fb, dim=(2, 3), keepdim=True)
        fa = fa.view(n, c, -1)
        fb = fb.view(n, c, -1)
        fa = fa / torch.norm(fa, dim=1, keepdim=True)
        fb = fb / torch.norm(fb, dim=1, keepdim=True)

        energy_ab = torch.bmm(fb.transpose(-2, -1), fa) * self.alpha  # n, HW_b, HW_a
        corr_ab = F.softmax(energy_ab, dim=2)  # expect: ATT001
        b_warp = torch.bmm(b_raw.view(n, raw_c, h * w), corr_ab).view(n, raw_c, h, w)

        energy_ba = torch.bmm(fa.transpose(-2, -1), fb) * self.alpha  # n, HW_a, HW_b
        corr_ba = F.softmax(energy_ba, dim=2)  # expect: ATT001
        a_warp = torch.bmm(a_raw.view(n, raw_c, h * w), corr_ba).view(n, raw_c, h, w)
        return corr_ab, corr_ba, a_warp, b_warp

    def forward(self, fa, fb, a_raw, b_raw):
        return self.warp(self.fa_conv(fa), self.fb_conv(fb), a_raw, b_raw)
