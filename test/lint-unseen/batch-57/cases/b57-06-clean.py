# case: b57-06-clean
# modelled-on: brophya/SCAN-AAAI2021 https://github.com/brophya/SCAN-AAAI2021/commit/aee2056a87ece88cf47f4d90f5fb4205c304ddb2
# label: correct
# class: clean
# pattern: the spatial attention of a joint multi-pedestrian trajectory predictor: each pedestrian weighs its neighbours by a learnable "spatial domain" radius looked up by relative bearing and heading (ReLU(domain - distance)), the weights are zeroed for absent pedestrians and for the pedestrian itself, divided by their row maximum and passed to a hand-written masked softmax that treats exact zeros as masked and renormalises over the rest
# why: correct: the masked softmax exponentiates, multiplies by the mask of non-zero entries and divides by the masked sum over the same axis (dim=2, the neighbours), so the kept weights sum to one and rows with no neighbour become all zeros instead of NaN; the final multiplication by the presence mask happens after that renormalisation and only touches entries that are already zero; the weights are a learned distance kernel, not dot products, so there is no 1/sqrt(d) scale
# looks-like: ATT001, ATT003, ATT006, ATT007
# source: https://github.com/brophya/SCAN-AAAI2021 https://github.com/brophya/SCAN-AAAI2021/commit/aee2056a87ece88cf47f4d90f5fb4205c304ddb2 attention.py
import torch
import torch.nn as nn


def softmax_over_nonzero(x: torch.Tensor, dim: int = 1, eps: float = 1e-14) -> torch.Tensor:
    """Softmax over the non-zero entries of `x` along `dim`; rows without any become zeros."""
    keep = (x != 0).float()
    numer = torch.exp(x) * keep
    denom = numer.sum(dim, keepdim=True)
    out = numer / (denom + eps)
    return torch.where(denom.expand_as(numer) != 0, out, torch.zeros_like(out))


class SpatialDomainAttention(nn.Module):
    def __init__(self, bearing_bin: int, heading_bin: int, init_radius: float, hidden: int):
        super().__init__()
        self.bearing_bin, self.heading_bin = bearing_bin, heading_bin
        self.radius = nn.Parameter(torch.full((360 // heading_bin, 360 // bearing_bin), float(init_radius)))
        self.hidden = hidden

    def bins(self, bearing: torch.Tensor, heading: torch.Tensor):
        hb = torch.remainder(heading + self.heading_bin / 2, 360) // self.heading_bin
        bb = torch.remainder(bearing + self.bearing_bin / 2, 360) // self.bearing_bin
        hb = hb.clamp(0, 360 // self.heading_bin - 1).long()
        bb = bb.clamp(0, 360 // self.bearing_bin - 1).long()
        return hb, bb

    def weights(self, dist, bearing, heading, present):
        # dist, bearing, heading: (B, P, P); present: (B, P) with 1 for pedestrians in the frame
        b, p, _ = dist.shape
        hb, bb = self.bins(bearing, heading)
        w = torch.relu(self.radius[hb, bb] - dist)
        pair = present[:, :, None] * present[:, None, :]
        not_self = 1.0 - torch.eye(p, device=dist.device)[None]
        allowed = pair * not_self
        w = w * allowed
        w = w / (w.amax(dim=2, keepdim=True) + 1e-14)
        w = softmax_over_nonzero(w * allowed, dim=2)
        return w * allowed

    def forward(self, h, dist, bearing, heading, present):
        """h: (B, P, hidden) pedestrian states; returns (B * P, 2 * hidden)."""
        b, p, _ = h.shape
        w = self.weights(dist, bearing, heading, present)
        social = torch.bmm(w, h).reshape(b * p, self.hidden)
        return torch.cat((social, h.reshape(b * p, self.hidden)), dim=1)
