# case: softmax-ssat-correspondence-source-side
# modelled-on: Snowfallingplum/SSAT https://github.com/Snowfallingplum/SSAT/issues/5
# label: correct
# pattern: makeup-transfer correspondence: mean-centred, channel-normalised features (n, c, HW) from two images, energy = bmm(fb.transpose(-2, -1), fa) * alpha is (n, HW_b, HW_a); the softmax is over dim=1 (after the fix for #5) and the warp is bmm(b_raw.view(n, raw_c, HW), corr), the weights on the right
# why: dim=1 is the axis bmm(b_raw, corr) sums over (b's positions), so each position of a gets a distribution over b; the cosine energies are sharpened by a fixed temperature alpha, not 1/sqrt(d)
# looks-like: ATT001, ATT003, ATT005
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
        corr_ab = F.softmax(energy_ab, dim=1)
        b_warp = torch.bmm(b_raw.view(n, raw_c, h * w), corr_ab).view(n, raw_c, h, w)

        energy_ba = torch.bmm(fa.transpose(-2, -1), fb) * self.alpha  # n, HW_a, HW_b
        corr_ba = F.softmax(energy_ba, dim=1)
        a_warp = torch.bmm(a_raw.view(n, raw_c, h * w), corr_ba).view(n, raw_c, h, w)
        return corr_ab, corr_ba, a_warp, b_warp

    def forward(self, fa, fb, a_raw, b_raw):
        return self.warp(self.fa_conv(fa), self.fb_conv(fb), a_raw, b_raw)
